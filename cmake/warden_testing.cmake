# Test helpers for warden's own tests and examples.
#
#   warden_add_unit_test(NAME SOURCES ...)             Catch2 test, one CTest test per TEST_CASE, label `unit`
#   warden_add_gpu_test(NAME SOURCES ...)              CUDA test, label `gpu`, *skipped* without a device
#   warden_compile_fail(NAME SOURCE EXPECT W0xx)       must-not-compile case plus its compiling twin
#   warden_compile_warn(NAME SOURCE EXPECT W05x)       must-warn case (a lint) plus its quiet twin
#   warden_record_compile_cost(TARGET)                 keep each compile's CPU time and memory (the test compile_cost)
#
# Labels in use: unit (unit-stress, unit-nvcc), compile_fail, compile_warn, twin, canary, gpu, example, package, zero_cost.

find_package(Catch2 2.13 REQUIRED)
include(Catch)   # catch_discover_tests

# Exit code by which a GPU test says "no device here": CTest then reports the test as skipped.
set(WARDEN_SKIP_RETURN_CODE 77)

# Catch2's main is compiled once and shared by every unit test executable.
if(NOT TARGET warden_catch_main)
  add_library(warden_catch_main STATIC "${PROJECT_SOURCE_DIR}/tests/support/catch_main.cpp")
  target_link_libraries(warden_catch_main PUBLIC Catch2::Catch2)
  target_compile_features(warden_catch_main PUBLIC cxx_std_20)
  # Catch2's own runner is not what the tests examine: never optimised, and under a sanitizer not
  # instrumented either (the sanitizers' runtimes still see its allocations), which halves its
  # compile, the longest single step of each sanitizer build.
  target_compile_options(warden_catch_main PRIVATE $<$<CXX_COMPILER_ID:GNU,Clang>:-O0 -g0>
                         $<$<AND:$<BOOL:${WARDEN_SANITIZE}>,$<CXX_COMPILER_ID:GNU,Clang>>:-fno-sanitize=all>)
endif()

# The unit tests' shared precompiled header: warden.hpp and Catch2's header, parsed once instead
# of in each of some fifty test files (about five seconds each with g++). Only for C++ tests
# compiled with the plain flags: a test with DEFINES or linked to the runtime stand-in (which sets
# WARDEN_CUDA_RUNTIME) configures warden differently, so it parses the headers itself.
# These tests are built on warden::runtime (WARDEN_SEPARATE_RUNTIME): the launch-time checks are
# compiled once for all of them instead of inline in each (about 2 s of g++ per file); the
# header-only mode stays covered by the tests that configure warden, the stand-in's tests, the
# examples, the compile-fail cases and the guide's code.
if(NOT TARGET warden_unit_pch)
  add_library(warden_unit_pch OBJECT "${PROJECT_SOURCE_DIR}/tests/support/unit_pch.cpp")
  target_link_libraries(warden_unit_pch PRIVATE warden::runtime Catch2::Catch2)
  target_compile_options(warden_unit_pch PRIVATE $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU,Clang>>:-Wall -Wextra -Wpedantic>)
  target_precompile_headers(warden_unit_pch PRIVATE <warden/warden.hpp> <catch2/catch.hpp>)
endif()

# SANITIZE: the sanitizers this test runs under (address, thread). Under a sanitizer preset
# (WARDEN_SANITIZE set) a test that does not name it is not built at all: the sanitizers are for
# the host side (pool, buffers, streams, threads, graphs, the runtime stand-in, the cpu backend's
# execution), not for the checker's suites, whose analysis also runs in constant evaluation, where
# undefined behaviour and out-of-bounds reads are already compile errors.
# LINK, DEFINES: extra libraries and compile definitions of the test's executable.
function(warden_add_unit_test name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES;LABELS;SANITIZE;LINK;DEFINES")
  if(WARDEN_SANITIZE AND NOT WARDEN_SANITIZE IN_LIST arg_SANITIZE)
    return()
  endif()
  add_executable(${name} ${arg_SOURCES})
  target_link_libraries(${name} PRIVATE warden::warden warden_catch_main ${arg_LINK})
  if(arg_DEFINES)
    target_compile_definitions(${name} PRIVATE ${arg_DEFINES})
  endif()
  # A source that configures warden itself (#define WARDEN_... before its includes) must see
  # its own setting, not the one the shared header was built with.
  set(plain_cxx ON)
  foreach(source IN LISTS arg_SOURCES)
    if(NOT source MATCHES "\\.cpp$")
      set(plain_cxx OFF)
    else()
      file(STRINGS "${source}" configures REGEX "^[ \t]*#[ \t]*define[ \t]+WARDEN_")
      if(configures)
        set(plain_cxx OFF)
      endif()
    endif()
  endforeach()
  if(plain_cxx AND NOT arg_DEFINES AND NOT arg_LINK)
    target_link_libraries(${name} PRIVATE warden::runtime)
    target_precompile_headers(${name} REUSE_FROM warden_unit_pch)
  endif()
  target_compile_options(${name} PRIVATE $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU,Clang>>:-Wall -Wextra -Wpedantic>)
  # catch_discover_tests cannot carry a list-valued property, so a test has one label: `unit`, or
  # `unit-<extra>` (e.g. unit-nvcc). `ctest -L unit` selects all of them, `ctest -L nvcc` the extra.
  set(label unit)
  if(arg_LABELS)
    set(label "unit-${arg_LABELS}")
  endif()
  catch_discover_tests(${name} TEST_PREFIX "${name}." PROPERTIES LABELS "${label}")
endfunction()

function(warden_add_gpu_test name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES;LABELS")
  if(NOT WARDEN_HAS_CUDA)
    return()
  endif()
  # Catch2's runner (warden_catch_main) with the device check (gpu_main.cpp, an object: it defines
  # what the runner's weak reference asks for), compiled once by the host compiler: through nvcc,
  # the Catch2 header alone took a minute or more per GPU test.
  if(NOT TARGET warden_gpu_main)
    add_library(warden_gpu_main OBJECT "${PROJECT_SOURCE_DIR}/tests/support/gpu_main.cpp")
    target_link_libraries(warden_gpu_main PUBLIC CUDA::cudart)
    target_compile_features(warden_gpu_main PUBLIC cxx_std_20)
  endif()
  add_executable(${name} ${arg_SOURCES})
  # On warden::runtime, as the nvcc unit tests: nvcc's host pass does not compile the launch-time
  # checks and the pool in each.
  target_link_libraries(${name} PRIVATE warden::runtime warden_gpu_main warden_catch_main)
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES
    LABELS "gpu;${arg_LABELS}" SKIP_RETURN_CODE ${WARDEN_SKIP_RETURN_CODE})
endfunction()

# --- compile-fail cases -------------------------------------------------------------------------
#
# warden_compile_fail(NAME SOURCE EXPECT <code>) registers, for the C++ compiler and (when CUDA is
# on) for nvcc:
#   compile_fail.<NAME>.<compiler>       compiles SOURCE with -DWARDEN_DEFECT; passes only if the
#                                        compiler fails AND one of its error lines carries <code>;
#   compile_fail.<NAME>.<compiler>.twin  compiles SOURCE without the macro; passes only if it compiles.
# The twin pins the failure to the defect: a typo or a missing header breaks the twin too.
# Every case is compiled by cmake/compile_fail_driver.cmake, which holds the exact command lines.

set(WARDEN_COMPILE_FAIL_DRIVER "${CMAKE_CURRENT_LIST_DIR}/compile_fail_driver.cmake")
# The C++ standard the C++ compiler's cases are compiled in: c++20, or c++2c where the compiler
# takes C++26's computed static_assert messages (clang++ 17+, g++ 14+), which print the
# explanation as text (diagnostic/race_rules.hpp; the clang19 preset).
set(WARDEN_COMPILE_FAIL_STD "c++20" CACHE STRING "-std= of the C++ compiler's compile-fail cases (c++20 or c++2c)")

# The compilers a case is registered for: "<tag>=<kind>=<path>" entries.
string(TOLOWER "${CMAKE_CXX_COMPILER_ID}" _warden_cf_tag)   # gnu, clang
set(_warden_cf_compilers "${_warden_cf_tag}=cxx=${CMAKE_CXX_COMPILER}")
if(WARDEN_HAS_CUDA)
  list(APPEND _warden_cf_compilers "nvcc=nvcc=${CMAKE_CUDA_COMPILER}")
endif()

# Include directories the cases see: warden's own (warden needs nothing else).
set(_warden_cf_includes "${PROJECT_SOURCE_DIR}/include")
list(JOIN _warden_cf_includes "|" _warden_cf_includes)

# Splits a "<tag>=<kind>=<path>" entry of _warden_cf_compilers into tag, kind and compiler, in the
# caller's scope.
macro(_warden_cf_compiler_of entry)
  string(REPLACE "=" ";" _warden_cf_parts "${entry}")
  list(GET _warden_cf_parts 0 tag)
  list(GET _warden_cf_parts 1 kind)
  list(GET _warden_cf_parts 2 compiler)
endmacro()

# g++ cases share one precompiled warden.hpp (built with `all`, with the driver's very flags): each
# case would otherwise spend half its time parsing the same headers. The driver uses it only when it
# exists, so a case run before the build is slower, not wrong.
set(_warden_cf_pch "")
if(WARDEN_BUILD_TESTS AND NOT WARDEN_SANITIZE AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND NOT TARGET warden_compile_fail_pch)
  set(_warden_cf_pch "${CMAKE_BINARY_DIR}/compile_fail_pch/warden_pch.hpp")
  file(GLOB_RECURSE _warden_cf_headers CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/include/warden/*.hpp")
  file(WRITE "${_warden_cf_pch}" "#include <warden/warden.hpp>\n")
  add_custom_command(OUTPUT "${_warden_cf_pch}.gch"
    COMMAND ${CMAKE_CXX_COMPILER} -std=c++20 -fconstexpr-ops-limit=4294967295
            -I${PROJECT_SOURCE_DIR}/include -x c++-header "${_warden_cf_pch}" -o "${_warden_cf_pch}.gch"
    DEPENDS ${_warden_cf_headers}
    COMMENT "Precompiling warden.hpp for the compile-fail cases")
  add_custom_target(warden_compile_fail_pch ALL DEPENDS "${_warden_cf_pch}.gch")
endif()

# One driver invocation as a test; MODE is "fail", "pass", "warn", "quiet", "twins" or "cases".
# An optional last argument names the batch file a "fail" case is judged from (FROM_BATCH).
function(_warden_cf_add_test test_name kind compiler source expect mode one_error)
  set(from_batch "")
  if(ARGC GREATER 7)
    set(from_batch "${ARGV7}")
  endif()
  set(workdir "${CMAKE_CURRENT_BINARY_DIR}/compile_fail/${test_name}")
  set(pch "")
  if(kind STREQUAL "cxx")
    set(pch "${_warden_cf_pch}")
  endif()
  add_test(NAME ${test_name}
    COMMAND ${CMAKE_COMMAND}
      -DKIND=${kind} -DCOMPILER=${compiler} -DSOURCE=${source} -DEXPECT=${expect} -DMODE=${mode}
      -DINCLUDES=${_warden_cf_includes} -DWORKDIR=${workdir} -DCUDA_ARCH=90 -DONE_ERROR=${one_error}
      -DPCH=${pch} -DFROM_BATCH=${from_batch} -DSTD=${WARDEN_COMPILE_FAIL_STD} -P ${WARDEN_COMPILE_FAIL_DRIVER})
endfunction()

# The compilers whose compile-fail cases are compiled together (MODE=cases) rather than one by
# one: nvcc, whose device pass spends most of a case's time on warden's headers, and g++, whose
# cases share a precompiled header but still paid, each, a process, the header's load and the
# instantiation of what every case uses. (clang++'s are compiled one by one: its output is cut
# the same way, but no preset CI runs has it.)
set(_warden_cf_batched_fail_tags nvcc gnu)
set(_warden_cf_batch_dir "${CMAKE_BINARY_DIR}/compile_fail")

function(warden_compile_fail name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "CANARY;ONE_ERROR" "SOURCE;EXPECT;PASS_REGEX" "LABELS")
  # ONE_ERROR: the compiler must print exactly one error (the diagnostic), no cascade.
  set(one_error OFF)
  if(arg_ONE_ERROR)
    set(one_error ON)
  endif()
  if(NOT arg_SOURCE OR NOT arg_EXPECT)
    message(FATAL_ERROR "warden_compile_fail(${name}): SOURCE and EXPECT are required")
  endif()
  if(NOT arg_EXPECT MATCHES "^[WE][0-9][0-9][0-9]$")
    message(FATAL_ERROR "warden_compile_fail(${name}): EXPECT must be a code such as W003, not '${arg_EXPECT}'")
  endif()
  get_filename_component(source "${arg_SOURCE}" ABSOLUTE)
  file(STRINGS "${source}" configures REGEX "^[ \t]*#[ \t]*(pragma|define[ \t]+WARDEN_)")
  foreach(entry IN LISTS _warden_cf_compilers)
    _warden_cf_compiler_of("${entry}")
    set(test_name "compile_fail.${name}.${tag}")
    if(tag IN_LIST _warden_cf_batched_fail_tags AND NOT configures AND NOT one_error AND NOT arg_EXPECT MATCHES "^W05")
      # Judged from its share of the batch compile_fail.cases.<tag> (the fixture that runs first).
      # Not a ONE_ERROR case: in a batch, an error that repeats another case's is printed once,
      # so a case's share could hold fewer errors than its own compile prints.
      get_property(batched GLOBAL PROPERTY WARDEN_CF_CASES_${tag})
      list(LENGTH batched index)
      set_property(GLOBAL APPEND PROPERTY WARDEN_CF_CASES_${tag} "${source}")
      _warden_cf_add_test(${test_name} ${kind} ${compiler} ${source} ${arg_EXPECT} fail ${one_error}
                          "${_warden_cf_batch_dir}/compile_fail.cases.${tag}/case_${index}.txt")
      set_tests_properties(${test_name} PROPERTIES FIXTURES_REQUIRED warden_cf_cases_${tag})
    else()
      _warden_cf_add_test(${test_name} ${kind} ${compiler} ${source} ${arg_EXPECT} fail ${one_error})
    endif()
    set_tests_properties(${test_name} PROPERTIES LABELS "compile_fail;${arg_LABELS}")
    if(arg_CANARY)
      # A canary proves the harness itself can say no: the driver must reject the case, and the
      # test passes only when the driver's verdict is the expected rejection.
      set_tests_properties(${test_name} PROPERTIES PASS_REGULAR_EXPRESSION "${arg_PASS_REGEX}")
    elseif(configures AND tag STREQUAL "nvcc" AND arg_EXPECT MATCHES "^W05")
      # A lint made an error (lint_*_as_error): nvcc's twin would compile the whole object again
      # (about 20 s each) to show what the g++ twin of the same source shows, that the padded or
      # coalesced kernel compiles with the pragma; under nvcc, compile_warn.quiet.nvcc compiles the
      # lints' quiet twins. The nvcc case itself stays: the pragma reaches nvcc's host pass.
    elseif(configures)
      _warden_cf_add_test(${test_name}.twin ${kind} ${compiler} ${source} ${arg_EXPECT} pass OFF)
      set_tests_properties(${test_name}.twin PROPERTIES LABELS "compile_fail;twin;${arg_LABELS}")
    else()
      set_property(GLOBAL APPEND PROPERTY WARDEN_CF_TWINS_${tag} "${source}")
    endif()
  endforeach()
  _warden_cf_defer_twins()
endfunction()

# The twins are compiled together, one test per compiler, compile_fail.twins.<compiler> (the
# driver's MODE=twins): apart, each twin parsed warden's headers again, most of its cost. A case
# that sets a pragma or a WARDEN_ setting before its includes keeps a twin test of its own, since
# in a shared unit its setting would reach the other cases, or come too late for the headers.
# Registered once, when the top-level directory is done and every case is known.
function(_warden_cf_defer_twins)
  get_property(deferred GLOBAL PROPERTY WARDEN_CF_TWINS_DEFERRED)
  if(NOT deferred)
    set_property(GLOBAL PROPERTY WARDEN_CF_TWINS_DEFERRED ON)
    cmake_language(DEFER DIRECTORY "${PROJECT_SOURCE_DIR}" CALL _warden_cf_add_twin_batches)
  endif()
endfunction()

function(_warden_cf_add_twin_batches)
  # MODE=twins and MODE=cases, per compiler, over the sources each collected. The longest tests
  # start first (CTest orders by COST where a fresh build has no timings); the cases' batch is the
  # fixture its cases' own tests are judged after.
  foreach(mode IN ITEMS twins cases)
    string(TOUPPER "${mode}" property)
    foreach(entry IN LISTS _warden_cf_compilers)
      _warden_cf_compiler_of("${entry}")
      get_property(sources GLOBAL PROPERTY WARDEN_CF_${property}_${tag})
      if(NOT sources)
        continue()
      endif()
      list(JOIN sources "|" sources)
      set(test_name "compile_fail.${mode}.${tag}")
      _warden_cf_add_test(${test_name} ${kind} ${compiler} "${sources}" ${mode} ${mode} OFF)
      if(mode STREQUAL "twins")
        set_tests_properties(${test_name} PROPERTIES LABELS "compile_fail;twin" COST 1000)
      else()
        set_tests_properties(${test_name} PROPERTIES LABELS "compile_fail" COST 1000 FIXTURES_SETUP warden_cf_cases_${tag})
      endif()
    endforeach()
  endforeach()
  # The lint cases batched under nvcc (warden_compile_warn): the cases' unit is their fixture.
  foreach(entry IN LISTS _warden_cf_compilers)
    _warden_cf_compiler_of("${entry}")
    get_property(sources GLOBAL PROPERTY WARDEN_CW_CASES_${tag})
    if(NOT sources)
      continue()
    endif()
    list(JOIN sources "|" sources)
    _warden_cf_add_test(compile_warn.cases.${tag} ${kind} ${compiler} "${sources}" W050 warn_cases OFF)
    set_tests_properties(compile_warn.cases.${tag} PROPERTIES LABELS "compile_warn" COST 1000
                         FIXTURES_SETUP warden_cw_cases_${tag})
    _warden_cf_add_test(compile_warn.quiet.${tag} ${kind} ${compiler} "${sources}" W050 quiet_twins OFF)
    set_tests_properties(compile_warn.quiet.${tag} PROPERTIES LABELS "compile_warn;twin" COST 1000)
  endforeach()
endfunction()

# warden_compile_twins_canary(NAME SOURCES <good> ... <broken>): the twins' batch must say no
# when one twin in it does not compile, and name that one. Registered per compiler as
# compile_fail.<NAME>.<compiler>; passes only when the driver names the last source as failing.
function(warden_compile_twins_canary name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES")
  list(TRANSFORM arg_SOURCES REPLACE "^(.+)$" "${CMAKE_CURRENT_SOURCE_DIR}/\\1")
  list(GET arg_SOURCES -1 broken)
  get_filename_component(broken "${broken}" NAME)
  list(JOIN arg_SOURCES "|" sources)
  foreach(entry IN LISTS _warden_cf_compilers)
    _warden_cf_compiler_of("${entry}")
    set(test_name "compile_fail.${name}.${tag}")
    _warden_cf_add_test(${test_name} ${kind} ${compiler} "${sources}" twins twins OFF)
    set_tests_properties(${test_name} PROPERTIES LABELS "compile_fail;canary"
      PASS_REGULAR_EXPRESSION "failing-twin=[^ \n]*/${broken}")
  endforeach()
endfunction()

# warden_compile_warn(NAME SOURCE EXPECT <code>) registers, for the C++ compiler and nvcc, a case
# for a performance lint (W050, W051: warnings, the program compiles):
#   compile_warn.<NAME>.<compiler>        compiles SOURCE with -DWARDEN_DEFECT; passes only if it
#                                         compiles AND a warning line carries <code> [short-name];
#   compile_warn.<NAME>.<compiler>.quiet  compiles SOURCE without the macro; passes only if it
#                                         compiles with no lint (W05x) in the output.
# Same driver and command lines as warden_compile_fail (MODE=warn / quiet). Under nvcc, whose lint
# cases compile the whole object (the host compiler prints the lints), the cases are compiled in
# one unit, compile_warn.cases.nvcc, each judged on its share (as compile_fail.cases.<tag>), and
# the twins in another, compile_warn.quiet.nvcc, which must print no lint at all.
function(warden_compile_warn name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "SOURCE;EXPECT" "LABELS")
  if(NOT arg_SOURCE OR NOT arg_EXPECT)
    message(FATAL_ERROR "warden_compile_warn(${name}): SOURCE and EXPECT are required")
  endif()
  if(NOT arg_EXPECT MATCHES "^W05[0-9]$")
    message(FATAL_ERROR "warden_compile_warn(${name}): EXPECT must be a lint's code such as W050, not '${arg_EXPECT}'")
  endif()
  get_filename_component(source "${arg_SOURCE}" ABSOLUTE)
  foreach(entry IN LISTS _warden_cf_compilers)
    _warden_cf_compiler_of("${entry}")
    set(test_name "compile_warn.${name}.${tag}")
    if(tag STREQUAL "nvcc")
      get_property(batched GLOBAL PROPERTY WARDEN_CW_CASES_${tag})
      list(LENGTH batched index)
      set_property(GLOBAL APPEND PROPERTY WARDEN_CW_CASES_${tag} "${source}")
      _warden_cf_add_test(${test_name} ${kind} ${compiler} ${source} ${arg_EXPECT} warn OFF
                          "${_warden_cf_batch_dir}/compile_warn.cases.${tag}/case_${index}.txt")
      set_tests_properties(${test_name} PROPERTIES LABELS "compile_warn;${arg_LABELS}"
                           FIXTURES_REQUIRED warden_cw_cases_${tag})
    else()
      _warden_cf_add_test(${test_name} ${kind} ${compiler} ${source} ${arg_EXPECT} warn OFF)
      set_tests_properties(${test_name} PROPERTIES LABELS "compile_warn;${arg_LABELS}")
      _warden_cf_add_test(${test_name}.quiet ${kind} ${compiler} ${source} ${arg_EXPECT} quiet OFF)
      set_tests_properties(${test_name}.quiet PROPERTIES LABELS "compile_warn;twin;${arg_LABELS}")
    endif()
  endforeach()
  _warden_cf_defer_twins()
endfunction()

# --- examples -----------------------------------------------------------------------------------
#
# warden_add_example(NAME SOURCES ... [HEADER_ONLY]) builds an example and registers it as a test
# (label `example`); a g++-built one runs on warden::runtime unless HEADER_ONLY, and its compile is
# held to the checker's budget (compile_cost). An example exits 0 when its result matches the reference, 77 when it needs a GPU
# that is not there (reported as skipped), anything else on a mismatch. A CUDA source (.cu) makes
# the example CUDA-only; it is skipped at configure time when nvcc is absent.
# The target warden_examples builds them all; examples/manifest.txt lists their binaries for
# scripts/quickstart, examples/cuda_manifest.txt the CUDA ones for scripts/gpu-check.

if(NOT TARGET warden_examples)
  add_custom_target(warden_examples)
endif()

function(warden_add_example name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "HEADER_ONLY" "" "SOURCES")
  set(needs_cuda OFF)
  foreach(source IN LISTS arg_SOURCES)
    if(source MATCHES "\\.cu$")
      set(needs_cuda ON)
    endif()
  endforeach()
  if(needs_cuda AND NOT WARDEN_HAS_CUDA)
    message(STATUS "warden: example ${name} needs nvcc, skipped")
    return()
  endif()
  add_executable(${name} ${arg_SOURCES})
  target_link_libraries(${name} PRIVATE warden::warden)
  if(NOT needs_cuda AND NOT arg_HEADER_ONLY)
    # The g++ builds run on warden::runtime, as the corpus and the unit tests do: header-only, each
    # would compile the launch-time checks and the pool again (about 6 s of g++ a program, 9.9 s
    # against 3.8 s for a one-line kernel), which is not the kernel's cost that compile_cost holds
    # to its budget. Header-only builds stay covered by HEADER_ONLY examples (saxpy, beside
    # saxpy_separate: the same program), the guide's code (guide_examples) and the installed
    # package's consumer.
    target_link_libraries(${name} PRIVATE warden::runtime)
  endif()
  if(needs_cuda)
    target_link_libraries(${name} PRIVATE CUDA::cudart)
    # The nvcc-built warden programs run on warden::runtime (the launch-time checks compiled once,
    # not by nvcc's host pass in each: about a quarter of its time, docs/benchmarks.md); the GPU
    # tests and the guide's code stay header-only.
    if(name MATCHES "_cuda$")
      target_link_libraries(${name} PRIVATE warden::runtime)
    endif()
    # nvcc keeps its intermediate files (the PTX and the cubin among them) in <name>.keep/: the test
    # zero_cost.ptx compares the examples' kernels with their twins on these, instead of
    # compiling every example a second time (benchmarks/zero_cost.sh --from-build).
    set(keep_dir "${CMAKE_CURRENT_BINARY_DIR}/${name}.keep")
    file(MAKE_DIRECTORY "${keep_dir}")
    target_compile_options(${name} PRIVATE "$<$<COMPILE_LANGUAGE:CUDA>:SHELL:--keep --keep-dir ${keep_dir}>")
    if(name MATCHES "_cuda$")  # a warden program (the twins launch no warden kernel): test entry_pairs
      set_property(GLOBAL APPEND PROPERTY WARDEN_KEEP_DIRS "${keep_dir}")
      # Built as a user's CUDA target is (README): the host precheck checks its kernels once and
      # nvcc compiles them against its table (proposals/0008, "Check once per file"), so that
      # entry_pairs, zero_cost.ptx and the GPU runs see the table's builds.
      warden_host_precheck(${name})
    endif()
  endif()
  add_dependencies(warden_examples ${name})
  # An example's g++ build is held to the checker's compile-time budget, as the corpus is.
  if(NOT needs_cuda AND NOT arg_HEADER_ONLY)
    warden_record_compile_cost(${name})
  endif()
  add_test(NAME example.${name} COMMAND ${name})
  set_tests_properties(example.${name} PROPERTIES
    LABELS example SKIP_RETURN_CODE ${WARDEN_SKIP_RETURN_CODE})
  set_property(GLOBAL APPEND PROPERTY WARDEN_EXAMPLE_BINARIES "$<TARGET_FILE:${name}>")
  if(needs_cuda)
    set_property(GLOBAL APPEND PROPERTY WARDEN_CUDA_EXAMPLE_BINARIES "$<TARGET_FILE:${name}>")
  endif()
endfunction()

# Writes <dir>/manifest.txt (every example) and <dir>/cuda_manifest.txt (those that run CUDA code,
# which scripts/gpu-check puts under compute-sanitizer).
function(warden_write_example_manifests dir)
  foreach(kind IN ITEMS "" CUDA_)
    get_property(binaries GLOBAL PROPERTY WARDEN_${kind}EXAMPLE_BINARIES)
    list(JOIN binaries "\n" content)
    string(TOLOWER "${kind}" prefix)
    file(GENERATE OUTPUT "${dir}/${prefix}manifest.txt" CONTENT "${content}\n")
  endforeach()
endfunction()

# The checker's compile-time budget (issue 32, item 4; the test compile_cost, warden_add_compile_cost_test
# below): a corpus target, and an example's g++ build, compiles through scripts/compile-cost-launcher,
# which keeps the CPU seconds and peak memory of each g++ compile in ${CMAKE_BINARY_DIR}/compile-costs.
# The measurement rides on the build itself: nothing is compiled twice.
find_program(WARDEN_TIME_PROGRAM NAMES time PATHS /usr/bin NO_DEFAULT_PATH)
set(WARDEN_COMPILE_COSTS "${CMAKE_BINARY_DIR}/compile-costs")
function(warden_record_compile_cost target)
  if(TARGET ${target} AND WARDEN_TIME_PROGRAM AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    set_target_properties(${target} PROPERTIES CXX_COMPILER_LAUNCHER
      "${PROJECT_SOURCE_DIR}/scripts/compile-cost-launcher;${WARDEN_COMPILE_COSTS};${WARDEN_TIME_PROGRAM}")
    set_property(GLOBAL APPEND PROPERTY WARDEN_COMPILE_COST_TARGETS ${target})
  endif()
endfunction()

# The test compile_cost: every file recorded by warden_record_compile_cost within 15 s of g++ CPU
# time and 2 GB (scripts/compile-cost-check; tests/compile_cost_known.txt is the written-down debt).
# Added once every recorded target exists (the examples come after the tests).
function(warden_add_compile_cost_test)
  get_property(targets GLOBAL PROPERTY WARDEN_COMPILE_COST_TARGETS)
  list(LENGTH targets count)
  find_package(Python3 COMPONENTS Interpreter QUIET)
  if(count GREATER 0 AND Python3_FOUND)
    add_test(NAME compile_cost COMMAND ${Python3_EXECUTABLE} ${PROJECT_SOURCE_DIR}/scripts/compile-cost-check
             --dir ${WARDEN_COMPILE_COSTS} --seconds 15 --megabytes 2048 --expect ${count}
             --known ${PROJECT_SOURCE_DIR}/tests/compile_cost_known.txt
             # The reference compile, whose slowdown is taken out of a file compiled again: saxpy's
             # separate build, 7.9 s of g++ CPU time on an idle core on 2026-12-07 (7.8 s in CI's build).
             --reference _saxpy_separate.dir_saxpy_main.cpp.o 7.9)
    # Run alone, after the longest tests: a file over the budget in the build's record is compiled
    # again, and CPU time grows with what runs on the other core (gpuverify_laplace3d: 21.6 s in a
    # build, 15.1 s again beside headers_pairs, 11.9 s alone).
    set_tests_properties(compile_cost PROPERTIES LABELS "corpus;example" RUN_SERIAL TRUE
      DEPENDS "headers_pairs;headers_alone;guide_examples;compile_fail.cases.gnu;compile_fail.cases.nvcc")
  endif()
endfunction()
