# schedbench_add_schedulers(<name> SIMS_HEADER <header>
#                           [SCHEDULERS <engine>...] [SOURCES <file>...])
#
# Builds schedbench's schedulers for a project's own sims, as the in-tree tests build them for the
# example sims (tests/CMakeLists.txt, sb_example_schedulers): a scheduler is a template
# instantiated in its own file for the sims of BuiltSims (schedulers/scheduler.hpp), so the
# project compiles that file again with SB_SIMS_HEADER, a header that defines the SimList
# sb::ProjectSims.
#
# Makes the object library <name> (objects, so that the static registration is linked) of
#  - the shipped host engines named in SCHEDULERS (cpu_serial, cpu_openmp: the files in
#    share/schedbench/schedulers), their runs added at start-up to the registry's schedulers of
#    the same names (add_runs), so that run() with scheduler "cpu-serial" runs the project's sims;
#  - SOURCES, the project's own engines built for the same sims; a SchedulerEntry of them is run
#    through a RunSpec that names it (the registry lists only the shipped schedulers).
# Each shipped entry function is renamed (cpu_serial_entry -> cpu_serial_<name>_entry) so that this
# build links beside the installed one. The GPU schedulers are not shipped as sources: on a
# project's sims, only host engines run.
function(schedbench_add_schedulers name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "SIMS_HEADER" "SCHEDULERS;SOURCES")
  if(NOT arg_SIMS_HEADER)
    message(FATAL_ERROR "schedbench_add_schedulers(${name}): SIMS_HEADER is required")
  endif()
  get_filename_component(header ${arg_SIMS_HEADER} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
  set(sources ${arg_SOURCES})
  set(definitions "SB_SIMS_HEADER=\"${header}\"")
  set(entries)
  foreach(engine ${arg_SCHEDULERS})
    _schedbench_engine_source(${engine} source)
    list(APPEND sources ${source})
    list(APPEND definitions ${engine}_entry=${engine}_${name}_entry)
    list(APPEND entries "${engine}_entry()")
  endforeach()
  if(entries)
    list(JOIN entries "," added)
    list(APPEND sources ${schedbench_SCHEDULER_SOURCES}/project_runs.cpp)
    list(APPEND definitions "SB_ADDED_RUNS=${added}")
  endif()
  add_library(${name} OBJECT ${sources})
  target_compile_definitions(${name} PRIVATE ${definitions})
  # cpu-openmp's pragmas; the OpenMP runtime comes with schedbench::schedulers.
  target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${OpenMP_CXX_FLAGS}>)
  target_link_libraries(${name} PUBLIC schedbench::schedulers)
endfunction()

# The shipped source of host engine `engine`, or an error naming those shipped.
function(_schedbench_engine_source engine out)
  set(source ${schedbench_SCHEDULER_SOURCES}/${engine}.cpp)
  if(NOT EXISTS ${source} OR engine STREQUAL "project_runs")
    file(GLOB shipped RELATIVE ${schedbench_SCHEDULER_SOURCES}
         ${schedbench_SCHEDULER_SOURCES}/*.cpp)
    list(REMOVE_ITEM shipped project_runs.cpp)
    list(TRANSFORM shipped REPLACE "\\.cpp$" "")
    list(JOIN shipped ", " accepted)
    message(FATAL_ERROR "schedbench_add_schedulers: '${engine}' is not a shipped host engine; "
                        "accepted: ${accepted}")
  endif()
  set(${out} ${source} PARENT_SCOPE)
endfunction()
