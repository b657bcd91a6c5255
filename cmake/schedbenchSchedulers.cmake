# Functions of the installed package (find_package(schedbench)) that build schedbench's schedulers
# and its whole command line for a project's own sims (docs/guide.md, "Your own sim").
#
# schedbench_add_executable(<name> SIMS_HEADER <header>
#                           [SCHEDULERS <scheduler>...] [SOURCES <file>...])
#
# Builds the project's own schedbench and schedbench-point, in <build dir>/bin: the whole command
# line (run, sweep, recommend, compare, export, report, list) with the project's sims in the
# catalog beside the shipped ones, run by the SCHEDULERS built for them (every shipped scheduler
# where SCHEDULERS is not given; the names as in schedulers/list.hpp, e.g. cpu_serial,
# dynamic_warp). Targets: <name> (schedbench), <name>_point (schedbench-point) and the object
# library <name>_schedulers (schedbench_add_schedulers), which the project's other programs may
# link too.
#
# schedbench_add_schedulers(<name> SIMS_HEADER <header>
#                           [SCHEDULERS <scheduler>...] [SOURCES <file>...])
#
# Builds schedbench's schedulers for a project's own sims, as the in-tree tests build them for the
# example sims (tests/CMakeLists.txt, sb_example_schedulers): a scheduler is a template
# instantiated in its own file for the sims of BuiltSims (schedulers/scheduler.hpp), so the
# project compiles that file again with SB_SIMS_HEADER, a header that defines the SimList
# sb::ProjectSims. Makes the object library <name> (objects, so that the static registration is
# linked) of
#  - the shipped schedulers named in SCHEDULERS (every one where it is not given: the files in
#    share/schedbench/schedulers), their runs added at start-up to the registry's schedulers of
#    the same names, and the project's sims to the catalog (cmake/project_runs.cpp);
#  - SOURCES, the project's own engines built for the same sims; a SchedulerEntry of them is run
#    through a RunSpec that names it (the registry lists only the shipped schedulers).
# Each shipped entry function is renamed (dynamic_warp_entry -> dynamic_warp_<name>_entry) so
# that this build links beside the installed one.
function(schedbench_add_schedulers name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "SIMS_HEADER" "SCHEDULERS;SOURCES")
  if(NOT arg_SIMS_HEADER)
    message(FATAL_ERROR "schedbench_add_schedulers(${name}): SIMS_HEADER is required")
  endif()
  get_filename_component(header ${arg_SIMS_HEADER} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
  _schedbench_shipped(shipped)
  set(chosen ${arg_SCHEDULERS})
  if(NOT chosen)
    set(chosen ${shipped})
  endif()
  set(sources ${arg_SOURCES} ${schedbench_SCHEDULER_SOURCES}/project_runs.cpp)
  # The data's relative paths start with data/ (core/data_file.hpp): its root is the prefix.
  get_filename_component(data_root ${schedbench_DATA_DIR} DIRECTORY)
  set(definitions "SB_SIMS_HEADER=\"${header}\"" "SB_DATA_ROOT=\"${data_root}\"")
  set(entries)
  set(device FALSE)
  foreach(scheduler ${chosen})
    if(NOT scheduler IN_LIST shipped)
      list(JOIN shipped ", " accepted)
      message(FATAL_ERROR "schedbench_add_schedulers(${name}): '${scheduler}' is not a shipped "
                          "scheduler; accepted: ${accepted}")
    endif()
    if(EXISTS ${schedbench_SCHEDULER_SOURCES}/${scheduler}.cu)
      list(APPEND sources ${schedbench_SCHEDULER_SOURCES}/${scheduler}.cu)
      set(device TRUE)
    else()
      list(APPEND sources ${schedbench_SCHEDULER_SOURCES}/${scheduler}.cpp)
    endif()
    list(APPEND definitions ${scheduler}_entry=${scheduler}_${name}_entry)
    string(APPEND entries " SB_ADDED_ENTRY(${scheduler})")
  endforeach()
  if(device)
    # The GPU schedulers' one driver (schedulers/device/driver.cu), built for the same sims.
    list(APPEND sources ${schedbench_SCHEDULER_SOURCES}/device/driver.cu)
  endif()
  # A list without commas, at which nvcc would split the definition (cmake/project_runs.cpp).
  list(APPEND definitions "SB_ADDED_RUNS=${entries}")
  add_library(${name} OBJECT ${sources})
  target_compile_definitions(${name} PRIVATE ${definitions})
  # The package's device architectures, which its own device code was built for.
  set_property(TARGET ${name} PROPERTY CUDA_ARCHITECTURES ${schedbench_CUDA_ARCHITECTURES})
  # cpu-openmp's pragmas; the OpenMP runtime comes with schedbench::schedulers. Built for a few
  # sims, a scheduler leaves unreferenced what only other sims use: nvcc's "declared but never
  # referenced" is no error here.
  target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${OpenMP_CXX_FLAGS}>
                         $<$<COMPILE_LANGUAGE:CUDA>:-diag-suppress=177>)
  target_link_libraries(${name} PUBLIC schedbench::schedulers)
endfunction()

function(schedbench_add_executable name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "SIMS_HEADER" "SCHEDULERS;SOURCES")
  schedbench_add_schedulers(${name}_schedulers SIMS_HEADER ${arg_SIMS_HEADER}
                            SCHEDULERS ${arg_SCHEDULERS} SOURCES ${arg_SOURCES})
  # schedbench runs each point of a sweep in schedbench-point, which it finds beside itself.
  add_executable(${name} ${schedbench_CLI_SOURCES}/main.cpp)
  add_executable(${name}_point ${schedbench_CLI_SOURCES}/point_runner.cpp)
  set_target_properties(${name} PROPERTIES OUTPUT_NAME schedbench)
  set_target_properties(${name}_point PROPERTIES OUTPUT_NAME schedbench-point)
  foreach(target ${name} ${name}_point)
    target_link_libraries(${target} PRIVATE ${name}_schedulers schedbench::harness)
    set_target_properties(${target} PROPERTIES
      RUNTIME_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/bin
      CUDA_ARCHITECTURES "${schedbench_CUDA_ARCHITECTURES}")
    if(schedbench_CUFFT_STATIC)
      set_property(TARGET ${target} PROPERTY CUDA_RESOLVE_DEVICE_SYMBOLS ON)
    endif()
  endforeach()
endfunction()

# The names of the shipped schedulers whose sources the package holds, in file order.
function(_schedbench_shipped out)
  file(GLOB files RELATIVE ${schedbench_SCHEDULER_SOURCES} ${schedbench_SCHEDULER_SOURCES}/*.cpp
       ${schedbench_SCHEDULER_SOURCES}/*.cu)
  list(REMOVE_ITEM files project_runs.cpp)
  list(TRANSFORM files REPLACE "\\.(cpp|cu)$" "")
  list(SORT files)
  set(${out} ${files} PARENT_SCOPE)
endfunction()
