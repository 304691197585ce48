# Per-target build settings. Nothing here touches CMAKE_CXX_FLAGS: every
# Quiver target links the interface target quiver_build_flags instead.

add_library(quiver_build_flags INTERFACE)
target_compile_features(quiver_build_flags INTERFACE cxx_std_20)
target_compile_options(quiver_build_flags INTERFACE
  -Wall -Wextra -Wno-unused-parameter -Werror=return-type -Werror=unused-result
  $<$<CONFIG:Release>:-O2>)
if(QUIVER_SANITIZE)
  target_compile_options(quiver_build_flags INTERFACE
    -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
  target_link_options(quiver_build_flags INTERFACE -fsanitize=address,undefined)
endif()

# The jemalloc shared library, linked into Quiver's own executables (tests,
# CLI, benchmarks) so that the jemalloc pool is available in them: jemalloc
# cannot be dlopen'ed into a running process (it needs static TLS).
add_library(quiver_jemalloc INTERFACE)
if(QUIVER_DEVELOPER_MODE OR QUIVER_BUILD_BENCHMARKS)
  find_library(QUIVER_JEMALLOC_LIBRARY NAMES jemalloc libjemalloc.so.2 REQUIRED)
  target_link_libraries(quiver_jemalloc INTERFACE "-Wl,--push-state,--no-as-needed"
                        "${QUIVER_JEMALLOC_LIBRARY}" "-Wl,--pop-state")
endif()

# quiver_add_test(NAME src...): one GoogleTest binary per module.
function(quiver_add_test name)
  if(NOT QUIVER_BUILD_TESTS)
    return()
  endif()
  add_executable(${name} ${ARGN})
  target_link_libraries(${name} PRIVATE quiver_build_flags quiver_jemalloc
                        GTest::gtest GTest::gmock GTest::gtest_main)
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES ENVIRONMENT
                       "ASAN_OPTIONS=detect_leaks=1:abort_on_error=1;UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
endfunction()
