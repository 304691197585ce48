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
#
# Unity build (QUIVER_UNITY_TESTS, default ON): a test binary's *_test.cc
# files are compiled QUIVER_UNITY_TEST_BATCH at a time as one translation
# unit. Almost all of a test file's debug (ASan+UBSan, -O0) compile time is
# code generation, much of it for the same inline functions and templates
# (GoogleTest's, the standard library's, Quiver's headers) that every file
# instantiates again; one TU generates them once (docs/design.md, "Test
# build"). The library and the release tree stay one TU per file. Each test
# file keeps its file-local names apart from the other files of its batch
# with `namespace { namespace QUIVER_UNITY_ID { ... } }`: CMake defines
# QUIVER_UNITY_ID to a name unique to each file in the unity source
# (UNITY_BUILD_UNIQUE_ID); without the unity build it is one fixed name.
#
# After the sources, two options for ctest's two jobs (CMakePresets.json)
# on a long binary:
#  SPLIT filter...: the binary runs as one ctest entry per GoogleTest
#    filter (NAME_part1, NAME_part2, ...) plus NAME_rest running every test
#    no filter names (--gtest_filter=-f1:f2:...): no test can be left out.
#  COST s: the entries' ctest COST (about their run time in seconds under
#    ASan): ctest starts the costliest first, also in a fresh tree, which
#    has no Testing/Temporary/CTestCostData.txt yet. Without it a long
#    binary added late (the reader) starts last and ends alone.
function(quiver_add_test name)
  if(NOT QUIVER_BUILD_TESTS)
    return()
  endif()
  cmake_parse_arguments(ARG "" "COST" "SPLIT" ${ARGN})
  add_executable(${name} ${ARG_UNPARSED_ARGUMENTS})
  if(QUIVER_UNITY_TESTS)
    # As few TUs as the batch size allows, of equal size (9 files: 5 + 4,
    # not 8 + 1), so that the two halves of a module compile side by side.
    list(LENGTH ARG_UNPARSED_ARGUMENTS files)
    math(EXPR units "(${files} + ${QUIVER_UNITY_TEST_BATCH} - 1) / ${QUIVER_UNITY_TEST_BATCH}")
    math(EXPR batch "(${files} + ${units} - 1) / ${units}")
    set_target_properties(${name} PROPERTIES
      UNITY_BUILD ON
      UNITY_BUILD_MODE BATCH
      UNITY_BUILD_BATCH_SIZE ${batch}
      UNITY_BUILD_UNIQUE_ID QUIVER_UNITY_ID)
  else()
    target_compile_definitions(${name} PRIVATE QUIVER_UNITY_ID=quiver_test_file)
  endif()
  target_link_libraries(${name} PRIVATE quiver_build_flags quiver_jemalloc
                        GTest::gtest GTest::gmock GTest::gtest_main)
  set(environment
      "ASAN_OPTIONS=detect_leaks=1:abort_on_error=1;UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
  set(entries "")
  if(ARG_SPLIT)
    set(part 0)
    foreach(filter IN LISTS ARG_SPLIT)
      math(EXPR part "${part} + 1")
      add_test(NAME ${name}_part${part} COMMAND ${name} --gtest_filter=${filter})
      list(APPEND entries ${name}_part${part})
    endforeach()
    list(JOIN ARG_SPLIT ":" named)
    add_test(NAME ${name}_rest COMMAND ${name} --gtest_filter=-${named})
    list(APPEND entries ${name}_rest)
  else()
    add_test(NAME ${name} COMMAND ${name})
    list(APPEND entries ${name})
  endif()
  set_tests_properties(${entries} PROPERTIES ENVIRONMENT "${environment}")
  if(ARG_COST)
    set_tests_properties(${entries} PROPERTIES COST ${ARG_COST})
  endif()
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
