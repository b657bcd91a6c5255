// The entry function of every scheduler in schedulers/list.hpp, each defined in that scheduler's
// own file; registry.cpp collects them.
#pragma once

#include "schedulers/list.hpp"
#include "schedulers/scheduler.hpp"

namespace sb {

#define SB_DECLARE_ENTRY(name) SchedulerEntry name##_entry();
SB_SCHEDULERS(SB_DECLARE_ENTRY)
#undef SB_DECLARE_ENTRY

}  // namespace sb
