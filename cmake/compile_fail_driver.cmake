# Compiles one compile-fail case and judges the result. Run by CTest as
#   cmake -DKIND=cxx|nvcc -DCOMPILER=<path> -DSOURCE=<file> -DEXPECT=<code> -DMODE=fail|pass
#         -DINCLUDES=<dir>|<dir> -DWORKDIR=<dir> [-DCUDA_ARCH=90] -P compile_fail_driver.cmake
#
# MODE=fail: the source is compiled with -DWARDEN_DEFECT. Passes only when the compiler fails and
#            one of its error lines names EXPECT. Anything else is a harness failure, spelled out.
# MODE=pass: the twin: the source without the macro must compile.
# ONE_ERROR=ON: with MODE=fail, the output must hold exactly one error line ("error:").

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
if(MODE STREQUAL "fail")
  set(defect_flags "-DWARDEN_DEFECT=1")
endif()

file(MAKE_DIRECTORY "${WORKDIR}")
if(KIND STREQUAL "nvcc")
  # nvcc has no syntax-only mode; the object goes to the work directory and is thrown away.
  if(NOT DEFINED CUDA_ARCH)
    set(CUDA_ARCH 90)
  endif()
  # The checker's budgets, as warden::warden sets them for nvcc (cmake/warden_library.cmake).
  set(command "${COMPILER}" -std=c++20 --expt-relaxed-constexpr --extended-lambda
      -Xcudafe=--max_cost_constexpr_call=2000000000 -Xcompiler=-fconstexpr-ops-limit=4294967295
      -arch=sm_${CUDA_ARCH} -x cu ${include_flags} ${defect_flags}
      -c "${SOURCE}" -o "${WORKDIR}/case.o")
else()
  # The checker's constant-evaluation budget, as warden::warden sets it (cmake/warden_library.cmake).
  if(COMPILER MATCHES "clang")
    set(budget -fconstexpr-steps=2147483647)
  else()
    set(budget -fconstexpr-ops-limit=4294967295)
  endif()
  set(command "${COMPILER}" -std=c++20 -fsyntax-only -fno-diagnostics-color ${budget}
      ${include_flags} ${defect_flags} "${SOURCE}")
endif()

execute_process(COMMAND ${command}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out
  WORKING_DIRECTORY "${WORKDIR}")
string(REPLACE ";" " " shown_command "${command}")
file(WRITE "${WORKDIR}/output.txt" "${out}")

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
