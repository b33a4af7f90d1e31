# CTest precheck.host_compiler_first: configures tests/precheck/project (warden as a subdirectory,
# Ninja, nvcc), then
#  1. builds racy.cu's precheck: it must fail with the host compiler's diagnostic, code and
#     explanation as text (W010 [write-write-race], "two threads"), not nvcc's characters;
#  2. builds the racy program: it must stop at the precheck, before nvcc compiles anything;
#  3. builds fixed.cu's precheck: it must pass (the correct kernel is not refused);
# then checks once per file (issue 58, proposals/0008): nvcc's phases compile against the table the
# precheck wrote, without the checker, and refuse with W006 a kernel the precheck did not check:
#  4. fixed.cu's object builds, its table holding one row; several.cu's table holds three rows and
#     its precheck shows none of them;
#  5. arch_dependent.cu, whose body differs under __CUDA_ARCH__: its precheck passes (the host's body
#     is correct) and nvcc's device pass refuses the other body;
#  6. a stale table: fixed.cu's row changed after the precheck, its object does not build;
#  7. an edited kernel: fixed.cu's kernel edited with the precheck's outputs made newer than the
#     edit (clock skew, a copied tree; ninja itself would run the precheck again), its object does
#     not build.
# The project is copied into WORKDIR, where step 7 edits it.
# Arguments: -DWARDEN_SOURCE_DIR -DWORKDIR -DCXX_COMPILER -DCUDA_COMPILER
file(REMOVE_RECURSE "${WORKDIR}")
file(COPY "${WARDEN_SOURCE_DIR}/tests/precheck/project/" DESTINATION "${WORKDIR}/project")
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${WORKDIR}/project" -B "${WORKDIR}/build" -G Ninja
                        "-DWARDEN_SOURCE_DIR=${WARDEN_SOURCE_DIR}" "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}"
                        "-DCMAKE_CUDA_COMPILER=${CUDA_COMPILER}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the user project failed:\n${out}")
endif()

set(racy_stamp "warden_host_precheck/racy/racy.cu.checked")
execute_process(COMMAND ninja -C "${WORKDIR}/build" "${racy_stamp}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(rc EQUAL 0)
  message(FATAL_ERROR "the precheck of racy.cu passed; it must refuse the kernel:\n${out}")
endif()
foreach(expected "checking the kernels of racy.cu with the host compiler" "W010 [write-write-race]" "two threads")
  string(FIND "${out}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the precheck's output lacks \"${expected}\":\n${out}")
  endif()
endforeach()
string(REGEX MATCH "'[a-z]', '[a-z]', '[a-z]'" characters "${out}")
if(characters)
  message(FATAL_ERROR "the precheck's output spells the explanation one character at a time:\n${out}")
endif()

execute_process(COMMAND ninja -C "${WORKDIR}/build" racy RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
string(FIND "${out}" "Building CUDA object" nvcc_ran)
if(rc EQUAL 0 OR NOT nvcc_ran EQUAL -1)
  message(FATAL_ERROR "building racy must stop at the precheck, before nvcc:\n${out}")
endif()

execute_process(COMMAND ninja -C "${WORKDIR}/build" "warden_host_precheck/fixed/fixed.cu.checked"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the precheck refused fixed.cu, whose kernel is correct:\n${out}")
endif()

# nvcc's phases against the table.
function(expect_unchecked what object)
  execute_process(COMMAND ninja -C "${WORKDIR}/build" "${object}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  string(FIND "${out}" "W006 [unchecked-kernel] warden::kernel: nvcc compiles a kernel that the host precheck did not check" at)
  if(rc EQUAL 0 OR at EQUAL -1)
    message(FATAL_ERROR "${what}: nvcc must refuse the kernel with W006:\n${out}")
  endif()
  string(FIND "${out}" "1 error detected" one)
  if(one EQUAL -1)
    message(FATAL_ERROR "${what}: W006 must be nvcc's one error:\n${out}")
  endif()
endfunction()

set(fixed_object "CMakeFiles/fixed.dir/fixed.cu.o")
set(fixed_table "${WORKDIR}/build/warden_host_precheck/fixed/fixed.cu.table.hpp")
execute_process(COMMAND ninja -C "${WORKDIR}/build" "${fixed_object}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "fixed.cu's object did not build against its table:\n${out}")
endif()
file(READ "${fixed_table}" table)
string(REGEX MATCHALL "\n    -?[0-9]+, [0-9]+," rows "${table}")
list(LENGTH rows row_count)
if(NOT table MATCHES "#define WARDEN_CHECKED_TABLE 1" OR NOT row_count EQUAL 1)
  message(FATAL_ERROR "fixed.cu's table should hold one row:\n${table}")
endif()

execute_process(COMMAND ninja -C "${WORKDIR}/build" "warden_host_precheck/several/several.cu.checked"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
file(READ "${WORKDIR}/build/warden_host_precheck/several/several.cu.table.hpp" several_table)
string(REGEX MATCHALL "\n    -?[0-9]+, [0-9]+," several_rows "${several_table}")
list(LENGTH several_rows several_count)
if(NOT rc EQUAL 0 OR NOT several_count EQUAL 3 OR out MATCHES "warden_checked_table_row")
  message(FATAL_ERROR "several.cu's precheck must pass, show no row and write three rows:\n${out}\n${several_table}")
endif()

execute_process(COMMAND ninja -C "${WORKDIR}/build" "warden_host_precheck/arch_dependent/arch_dependent.cu.checked"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the precheck refused arch_dependent.cu, whose host body is correct:\n${out}")
endif()
expect_unchecked("arch_dependent.cu (a body that differs under __CUDA_ARCH__)" "CMakeFiles/arch_dependent.dir/arch_dependent.cu.o")

string(REGEX REPLACE "\n    (-?[0-9]+)," "\n    12345," stale "${table}")
file(WRITE "${fixed_table}" "${stale}")
expect_unchecked("a stale table" "${fixed_object}")

file(WRITE "${fixed_table}" "${table}")
file(READ "${WORKDIR}/project/fixed.cu" source)
string(REPLACE "w::atomic_add(total[0], in[i])" "w::atomic_add(total[0], in[i / 2])" edited "${source}")
if(edited STREQUAL source)
  message(FATAL_ERROR "fixed.cu changed: update the edit in tests/precheck/run_precheck.cmake")
endif()
file(WRITE "${WORKDIR}/project/fixed.cu" "${edited}")
execute_process(COMMAND "${CMAKE_COMMAND}" -E sleep 1)
file(TOUCH "${fixed_table}" "${WORKDIR}/build/warden_host_precheck/fixed/fixed.cu.checked")
# Ninja keeps the outputs' times in its log and would run the precheck again: make it believe them.
execute_process(COMMAND ninja -C "${WORKDIR}/build" -t restat OUTPUT_QUIET ERROR_QUIET)
expect_unchecked("an edited kernel with the precheck's outputs newer than the edit" "${fixed_object}")

message(STATUS "precheck: racy.cu refused by the host compiler with its text, before nvcc; fixed.cu passed and "
               "built against its table; nvcc refused (W006) a body that differs under __CUDA_ARCH__, a stale table "
               "and an edited kernel")
