# Helpers that keep binaries free of shared libraries a driver-only machine lacks: the C++ and
# GCC runtimes and OpenMP are linked statically (the CUDA runtime is, by
# CMAKE_CUDA_RUNTIME_LIBRARY). tests/check_portable.sh checks the result.

# libgomp.a as the compiler ships it.
execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libgomp.a
                OUTPUT_VARIABLE SB_LIBGOMP_STATIC OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT EXISTS "${SB_LIBGOMP_STATIC}")
  message(FATAL_ERROR "libgomp.a not found (asked ${CMAKE_CXX_COMPILER}): install the compiler's OpenMP runtime")
endif()

# Compiles `target` with OpenMP and links the static runtime into whatever links it.
function(sb_use_static_openmp target)
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${OpenMP_CXX_FLAGS}>)
  target_link_libraries(${target} PUBLIC $<BUILD_INTERFACE:${SB_LIBGOMP_STATIC}>
                        $<INSTALL_INTERFACE:schedbench::gomp> Threads::Threads ${CMAKE_DL_LIBS})
endfunction()

function(sb_portable_executable target)
  target_link_options(${target} PRIVATE -static-libstdc++ -static-libgcc)
endfunction()

find_package(Threads REQUIRED)

# cuFFT (the field module's device solver): the static library where the toolkit has it (a full
# CUDA toolkit on a GPU machine), with culibos; otherwise, or with -DSB_CUFFT_STATIC=OFF, the
# shared one, which sb_link_cufft carries in build/lib (CI's toolkit has only that). CUDA 13's libcufft_static.a holds relocatable device code (its callback support),
# so executables that link it get a device link step.
if(TARGET CUDA::cufft_static)
  option(SB_CUFFT_STATIC "Link cuFFT statically (CUDA::cufft_static)" ON)
endif()
set(SB_CUFFT_IS_STATIC OFF)
if(SB_CUFFT_STATIC AND TARGET CUDA::cufft_static)
  set(SB_CUFFT_IS_STATIC ON)
  set(SB_CUFFT CUDA::cufft_static CUDA::culibos)
else()
  set(SB_CUFFT CUDA::cufft)
  get_filename_component(SB_CUFFT_REAL "${CUDA_cufft_LIBRARY}" REALPATH)
  execute_process(COMMAND readelf -d "${SB_CUFFT_REAL}" OUTPUT_VARIABLE sb_cufft_dynamic)
  string(REGEX MATCH "Library soname: \\[([^]]*)\\]" sb_cufft_soname "${sb_cufft_dynamic}")
  set(SB_CUFFT_SONAME "${CMAKE_MATCH_1}")
endif()

# For an executable that links cuFFT (through sb_fields_device): the device link step of the
# static library, or the shared library beside the executable.
function(sb_link_cufft target)
  if(SB_CUFFT_IS_STATIC)
    set_property(TARGET ${target} PROPERTY CUDA_RESOLVE_DEVICE_SYMBOLS ON)
  else()
    set_property(TARGET ${target} APPEND PROPERTY BUILD_RPATH "$ORIGIN/../lib")
    add_custom_command(TARGET ${target} POST_BUILD
      COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/lib
      COMMAND ${CMAKE_COMMAND} -E copy_if_different ${SB_CUFFT_REAL}
              ${CMAKE_BINARY_DIR}/lib/${SB_CUFFT_SONAME})
  endif()
endfunction()
