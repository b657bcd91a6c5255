// One function per scheduler, each defined in that scheduler's own file; registry.cpp lists them.
#pragma once

#include "schedulers/scheduler.hpp"

namespace sb {

SchedulerEntry cpu_serial_entry();
SchedulerEntry cpu_openmp_entry();
SchedulerEntry naive_entry();
SchedulerEntry naive_buffered_entry();
SchedulerEntry huge_iterate_entry();
SchedulerEntry static_iterate_entry();
SchedulerEntry static_iterate_coop_entry();
SchedulerEntry cpu_sync_entry();
SchedulerEntry gpu_iterate_global_entry();
SchedulerEntry gpu_iterate_organised_entry();
SchedulerEntry gpu_iterate_grid_sync_entry();
SchedulerEntry static_full_entry();
SchedulerEntry dynamic_thread_entry();
SchedulerEntry dynamic_block_entry();
SchedulerEntry dynamic_warp_entry();
SchedulerEntry event_compact_entry();
SchedulerEntry bound_entry();

}  // namespace sb
