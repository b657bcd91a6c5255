// Every scheduler, one line each, in the order `schedbench list` shows them: the one list a new
// scheduler joins (docs/design.md §8). X(name) stands for the function `SchedulerEntry
// name_entry()` that the scheduler's file, schedulers/name.cu or .cpp, defines; CMake builds
// every file in schedulers/, so the file and this line are all a scheduler needs.
#pragma once

#define SB_SCHEDULERS(X)   \
  X(cpu_serial)            \
  X(cpu_openmp)            \
  X(naive)                 \
  X(naive_buffered)        \
  X(huge_iterate)          \
  X(static_iterate)        \
  X(static_iterate_coop)   \
  X(cpu_sync)              \
  X(gpu_iterate_global)    \
  X(gpu_iterate_organised) \
  X(gpu_iterate_grid_sync) \
  X(static_full)           \
  X(dynamic_thread)        \
  X(dynamic_block)         \
  X(dynamic_warp)          \
  X(event_compact)         \
  X(persistent_cycle)      \
  X(graph_cycle)           \
  X(bound)
