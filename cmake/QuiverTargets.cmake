# Per-target build settings. Nothing here touches CMAKE_CXX_FLAGS: every
# Quiver target links the interface target quiver_build_flags instead.

add_library(quiver_build_flags INTERFACE)
target_compile_features(quiver_build_flags INTERFACE cxx_std_20)
target_compile_options(quiver_build_flags INTERFACE
  -Wall -Wextra -Wno-unused-parameter -Werror=return-type -Werror=unused-result
  $<$<CONFIG:Release>:-O2>)
# x86-64: SSE4.2 and POPCNT, as Arrow C++'s default SIMD level (every x86-64
# CPU since 2008-2011 has them). Without -mpopcnt, std::popcount (bitmap
# counts, validity from levels) is a libgcc call per word.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  target_compile_options(quiver_build_flags INTERFACE -msse4.2 -mpopcnt)
endif()
if(QUIVER_SANITIZE)
  target_compile_options(quiver_build_flags INTERFACE
    -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
  target_link_options(quiver_build_flags INTERFACE -fsanitize=address,undefined)
endif()
if(QUIVER_TSAN)
  if(QUIVER_SANITIZE)
    message(FATAL_ERROR "QUIVER_TSAN and QUIVER_SANITIZE (ASan) cannot be combined")
  endif()
  target_compile_options(quiver_build_flags INTERFACE -fsanitize=thread -fno-omit-frame-pointer)
  target_link_options(quiver_build_flags INTERFACE -fsanitize=thread)
endif()
# The fuzz tree: every Quiver object file gets libFuzzer's coverage
# instrumentation (the fuzz executables alone link libFuzzer's main, see
# quiver_add_fuzz), at -O1 so that the sanitized runs are fast enough.
if(QUIVER_BUILD_FUZZERS)
  target_compile_options(quiver_build_flags INTERFACE -fsanitize=fuzzer-no-link
                         $<$<CONFIG:Debug>:-O1>)
endif()

# The jemalloc shared library, linked into Quiver's own executables (tests,
# CLI, benchmarks) so that the jemalloc pool is available in them: jemalloc
# cannot be dlopen'ed into a running process (it needs static TLS).
add_library(quiver_jemalloc INTERFACE)
if(QUIVER_BUILD_TESTS OR QUIVER_BUILD_TOOLS OR QUIVER_BUILD_BENCHMARKS)
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

# quiver_add_fuzz(NAME src...): one libFuzzer executable (built in the fuzz
# tree only, into <build>/fuzzers/NAME), linking the whole library. Its seed
# corpus is fuzz/corpus/NAME/ (fuzz/make_corpus.py); fuzz/run.sh (make fuzz)
# runs every executable in <build>/fuzzers.
function(quiver_add_fuzz name)
  if(NOT QUIVER_BUILD_FUZZERS)
    return()
  endif()
  add_executable(${name} ${ARGN})
  target_link_libraries(${name} PRIVATE quiver::quiver quiver_build_flags)
  target_link_options(${name} PRIVATE -fsanitize=fuzzer)
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${PROJECT_BINARY_DIR}/fuzzers")
endfunction()
