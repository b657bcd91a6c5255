# `cmake --install build --prefix P`: the tool, and the package that other CMake projects find
# with find_package(schedbench) (docs/design.md §11).
# The installed tree keeps the build's layout where the tool looks for its files: the modules and
# bundled shared libraries in P/lib (ranks/world.cpp loads bin/../lib/libsb_mpi.so), the data in
# P/data (sims/air/air.cpp looks in bin/../data), schedbench-point beside schedbench.
include(CMakePackageConfigHelpers)

set(sb_package_dir lib/cmake/schedbench)

# The libraries a project links to run its sims with the schedulers, as schedbench::<name>.
set(sb_installed_libraries sb_flags sb_fmt sb_core sb_ranks sb_fields sb_sims sb_fields_device
    sb_schedulers sb_harness)
foreach(library ${sb_installed_libraries})
  string(REGEX REPLACE "^sb_" "" name ${library})
  set_target_properties(${library} PROPERTIES EXPORT_NAME ${name})
endforeach()
install(TARGETS ${sb_installed_libraries} EXPORT schedbenchTargets ARCHIVE DESTINATION lib)

# The executables find the shared library they may carry (a shared cuFFT) in P/lib, as they
# find it in build/lib.
set_target_properties(schedbench schedbench-point PROPERTIES INSTALL_RPATH "$ORIGIN/../lib")
install(TARGETS schedbench schedbench-point EXPORT schedbenchTargets RUNTIME DESTINATION bin)
if(NOT SB_CUFFT_IS_STATIC)
  install(FILES ${CMAKE_BINARY_DIR}/lib/${SB_CUFFT_SONAME} DESTINATION lib)
endif()
foreach(module sb_mpi sb_nccl)
  if(TARGET ${module})
    install(TARGETS ${module} LIBRARY DESTINATION lib)
  endif()
endforeach()
install(DIRECTORY data DESTINATION .)

# The headers under the paths the sources include them by ("core/...", "schedulers/...").
install(DIRECTORY core ranks fields sims schedulers harness DESTINATION include
        FILES_MATCHING PATTERN "*.hpp" PATTERN "*.cuh")

# The schedulers' sources (schedulers/*.cpp and *.cu but registry.cpp and policy.cpp) and the GPU
# schedulers' driver, which a project compiles for its own sims: each scheduler is a template
# instantiated in its file (schedbench_add_schedulers); and the two mains of the command line
# (schedbench_add_executable).
file(GLOB sb_scheduler_sources CONFIGURE_DEPENDS schedulers/*.cpp schedulers/*.cu)
list(FILTER sb_scheduler_sources EXCLUDE REGEX "/(registry|policy)\\.cpp$")
set(SB_SCHEDULER_SOURCES_DIR share/schedbench/schedulers)
install(FILES ${sb_scheduler_sources} cmake/project_runs.cpp
        DESTINATION ${SB_SCHEDULER_SOURCES_DIR})
install(FILES schedulers/device/driver.cu DESTINATION ${SB_SCHEDULER_SOURCES_DIR}/device)
set(SB_CLI_SOURCES_DIR share/schedbench/cli)
install(FILES harness/cli/main.cpp harness/sweep/point_runner.cpp DESTINATION ${SB_CLI_SOURCES_DIR})
set(SB_DATA_DIR data)

install(EXPORT schedbenchTargets NAMESPACE schedbench:: DESTINATION ${sb_package_dir})
configure_package_config_file(cmake/schedbenchConfig.cmake.in
  ${CMAKE_BINARY_DIR}/generated/schedbenchConfig.cmake INSTALL_DESTINATION ${sb_package_dir}
  PATH_VARS SB_SCHEDULER_SOURCES_DIR SB_CLI_SOURCES_DIR SB_DATA_DIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/generated/schedbenchConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/generated/schedbenchConfig.cmake
        ${CMAKE_BINARY_DIR}/generated/schedbenchConfigVersion.cmake
        cmake/schedbenchSchedulers.cmake DESTINATION ${sb_package_dir})
