# Compiles one compile-fail case and judges the result. Run by CTest as
#   cmake -DKIND=cxx|nvcc -DCOMPILER=<path> -DSOURCE=<file> -DEXPECT=<code> -DMODE=fail|pass
#         -DINCLUDES=<dir>|<dir> -DWORKDIR=<dir> [-DCUDA_ARCH=90] -P compile_fail_driver.cmake
#
# MODE=fail: the source is compiled with -DWARDEN_DEFECT. Passes only when the compiler fails and
#            one of its error lines names EXPECT. Anything else is a harness failure, spelled out.
# MODE=pass: the twin: the source without the macro must compile.
# ONE_ERROR=ON: with MODE=fail, the output must hold exactly one error line ("error:").
# MODE=warn: (warden_compile_warn) compiled with -DWARDEN_DEFECT; passes only when it compiles AND
#            a warning line names EXPECT as a lint ("warning: ... W050 [bank-conflict] ...").
# MODE=quiet: the warning case's twin, without the macro: must compile with no lint (W05x) at all.

foreach(var KIND COMPILER SOURCE EXPECT MODE WORKDIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "compile_fail_driver: -D${var}=... is missing")
  endif()
endforeach()

string(REPLACE "|" ";" include_dirs "${INCLUDES}")
set(include_flags "")
foreach(dir IN LISTS include_dirs)
  list(APPEND include_flags "-I${dir}")
endforeach()

set(defect_flags "")
if(MODE STREQUAL "fail" OR MODE STREQUAL "warn")
  set(defect_flags "-DWARDEN_DEFECT=1")
endif()

file(MAKE_DIRECTORY "${WORKDIR}")
if(KIND STREQUAL "nvcc")
  # nvcc has no syntax-only mode. warden's static checks fire in nvcc's device pass (the EDG front
  # end that cicc runs), host-only rules such as W001 included, so a case and its twin stop after
  # it (-ptx): that pass is where the defect must fail and the twin must pass, and the host pass
  # (cudafe++, then g++ on the whole program) would cost four times as much without judging more.
  # The lints (W05x) are the exception: they are deprecation warnings, which only the host
  # compiler prints, so their cases (warnings, or errors by -Werror or a pragma) compile the object.
  if(NOT DEFINED CUDA_ARCH)
    set(CUDA_ARCH 90)
  endif()
  if(MODE STREQUAL "warn" OR MODE STREQUAL "quiet" OR EXPECT MATCHES "^W05")
    set(output_flags -c "${SOURCE}" -o "${WORKDIR}/case.o")
  else()
    set(output_flags -ptx "${SOURCE}" -o "${WORKDIR}/case.ptx")
  endif()
  # The checker's budgets, as warden::warden sets them for nvcc (cmake/warden_library.cmake).
  set(command "${COMPILER}" -std=c++20 --expt-relaxed-constexpr --extended-lambda
      -Xcudafe=--max_cost_constexpr_call=2000000000 -Xcompiler=-fconstexpr-ops-limit=4294967295
      -arch=sm_${CUDA_ARCH} -x cu ${include_flags} ${defect_flags} ${output_flags})
else()
  # The checker's constant-evaluation budget, as warden::warden sets it (cmake/warden_library.cmake).
  if(COMPILER MATCHES "clang")
    set(budget -fconstexpr-steps=2147483647)
  else()
    set(budget -fconstexpr-ops-limit=4294967295)
  endif()
  # PCH: warden.hpp precompiled once for all cases (cmake/warden_testing.cmake), when it was built
  # with these very flags; a case's own #include <warden/warden.hpp> is then a no-op. It saves the
  # two seconds of parsing each of the cases would repeat, and changes no diagnostic.
  # A header edited after the PCH was built makes it stale: then the case parses the headers itself.
  # A case that sets a pragma or configures warden before its includes must have them apply to
  # the headers too, which a PCH parsed earlier would escape: such a case parses them itself.
  set(pch_flags "")
  file(STRINGS "${SOURCE}" configures REGEX "^[ \t]*#[ \t]*(pragma|define[ \t]+WARDEN_)")
  if(DEFINED PCH AND NOT PCH STREQUAL "" AND EXISTS "${PCH}.gch" AND NOT configures)
    set(pch_flags -include "${PCH}" -Winvalid-pch -Werror=invalid-pch)
    foreach(dir IN LISTS include_dirs)
      file(GLOB_RECURSE headers "${dir}/warden/*.hpp")
      foreach(header IN LISTS headers)
        if("${header}" IS_NEWER_THAN "${PCH}.gch")
          set(pch_flags "")
          break()
        endif()
      endforeach()
    endforeach()
  endif()
  set(command "${COMPILER}" -std=c++20 -fsyntax-only -fno-diagnostics-color ${budget}
      ${pch_flags} ${include_flags} ${defect_flags} "${SOURCE}")
endif()

execute_process(COMMAND ${command}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out
  WORKING_DIRECTORY "${WORKDIR}")
string(REPLACE ";" " " shown_command "${command}")
file(WRITE "${WORKDIR}/output.txt" "${out}")

if(MODE STREQUAL "warn" OR MODE STREQUAL "quiet")
  if(NOT rc EQUAL 0)
    message("${out}")
    message(FATAL_ERROR "verdict=warning-case-does-not-compile\n${SOURCE} (MODE=${MODE}) does not compile; a lint "
                        "must warn, not fail.\n  command: ${shown_command}")
  endif()
  string(REPLACE ";" "," out_no_semicolons "${out}")
  string(REPLACE "\n" ";" lines "${out_no_semicolons}")
  set(found_at "")
  set(lints 0)
  set(line_number 0)
  foreach(line IN LISTS lines)
    math(EXPR line_number "${line_number} + 1")
    if(line MATCHES "W05[0-9] \\[[a-z-]+\\]")
      math(EXPR lints "${lints} + 1")
    endif()
    if(found_at STREQUAL "" AND line MATCHES "warning" AND line MATCHES "${EXPECT} \\[[a-z-]+\\]")
      set(found_at ${line_number})
    endif()
  endforeach()
  if(MODE STREQUAL "quiet")
    if(NOT lints EQUAL 0)
      message("${out}")
      message(FATAL_ERROR "verdict=twin-warns\nthe twin of ${SOURCE} (defect off) prints a lint on ${lints} lines; "
                          "it must be quiet.\n  command: ${shown_command}")
    endif()
    message(STATUS "warden_compile_warn: twin compiled without lints: ${SOURCE}")
    return()
  endif()
  if(found_at STREQUAL "")
    message("${out}")
    message(FATAL_ERROR "verdict=no-warning\n${SOURCE} compiled, but no warning line names ${EXPECT}.\n"
                        "  command: ${shown_command}")
  endif()
  message(STATUS "warden_compile_warn: ${EXPECT} on line ${found_at}: ${SOURCE}")
  return()
endif()

if(MODE STREQUAL "pass")
  if(NOT rc EQUAL 0)
    message("${out}")
    message(FATAL_ERROR "verdict=twin-does-not-compile\nthe twin of ${SOURCE} (defect off) does not compile, "
                        "so the case proves nothing.\n  command: ${shown_command}")
  endif()
  message(STATUS "warden_compile_fail: twin compiled: ${SOURCE}")
  return()
endif()

if(rc EQUAL 0)
  # Each verdict carries a token without spaces: CMake wraps FATAL_ERROR text at spaces, at widths
  # that depend on the path length, so the canaries' PASS_REGEX can only rely on such a token.
  message(FATAL_ERROR "verdict=compiled-but-must-fail\n${SOURCE} compiled, but it must not: "
                      "the defect did not trigger ${EXPECT}.\n  command: ${shown_command}")
endif()

# The code must sit on an error line, not just anywhere (a note or a file name would not do).
string(REPLACE ";" "," out_no_semicolons "${out}")
string(REPLACE "\n" ";" lines "${out_no_semicolons}")
set(found_at "")
set(line_number 0)
foreach(line IN LISTS lines)
  math(EXPR line_number "${line_number} + 1")
  if(line MATCHES "error" AND line MATCHES "${EXPECT}")
    set(found_at ${line_number})
    break()
  endif()
endforeach()

if(found_at STREQUAL "")
  message("${out}")
  message(FATAL_ERROR "verdict=error-without-code\n${SOURCE} failed to compile, but no error line names "
                      "${EXPECT}: it failed for another reason.\n  command: ${shown_command}")
endif()
list(LENGTH lines total_lines)

# ONE_ERROR: the diagnostic must be the only error (no cascade from code that uses the kernel).
if(ONE_ERROR)
  set(errors 0)
  foreach(line IN LISTS lines)
    if(line MATCHES "error:")
      math(EXPR errors "${errors} + 1")
    endif()
  endforeach()
  if(NOT errors EQUAL 1)
    message("${out}")
    message(FATAL_ERROR "verdict=more-than-one-error\n${SOURCE} failed with ${errors} error lines; the diagnostic "
                        "must be the only one.\n  command: ${shown_command}")
  endif()
endif()
message(STATUS "warden_compile_fail: ${EXPECT} on line ${found_at} of ${total_lines}: ${SOURCE}")
