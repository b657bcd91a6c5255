// One function per scheduler, each defined in that scheduler's own file; registry.cpp lists them.
#pragma once

#include "schedulers/scheduler.hpp"

namespace sb {

SchedulerEntry cpu_serial_entry();
SchedulerEntry cpu_openmp_entry();

}  // namespace sb
