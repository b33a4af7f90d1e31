# CTest precheck.host_compiler_first: configures tests/precheck/project (warden as a subdirectory,
# Ninja, nvcc), then
#  1. builds racy.cu's precheck: it must fail with the host compiler's diagnostic, code and
#     explanation as text (W010 [write-write-race], "two threads"), not nvcc's characters;
#  2. builds the racy program: it must stop at the precheck, before nvcc compiles anything;
#  3. builds fixed.cu's precheck: it must pass (the correct kernel is not refused).
# Arguments: -DWARDEN_SOURCE_DIR -DWORKDIR -DCXX_COMPILER -DCUDA_COMPILER
file(REMOVE_RECURSE "${WORKDIR}")
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${WARDEN_SOURCE_DIR}/tests/precheck/project" -B "${WORKDIR}" -G Ninja
                        "-DWARDEN_SOURCE_DIR=${WARDEN_SOURCE_DIR}" "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}"
                        "-DCMAKE_CUDA_COMPILER=${CUDA_COMPILER}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the user project failed:\n${out}")
endif()

set(racy_stamp "warden_host_precheck/racy/racy.cu.checked")
execute_process(COMMAND ninja -C "${WORKDIR}" "${racy_stamp}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
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

execute_process(COMMAND ninja -C "${WORKDIR}" racy RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
string(FIND "${out}" "Building CUDA object" nvcc_ran)
if(rc EQUAL 0 OR NOT nvcc_ran EQUAL -1)
  message(FATAL_ERROR "building racy must stop at the precheck, before nvcc:\n${out}")
endif()

execute_process(COMMAND ninja -C "${WORKDIR}" "warden_host_precheck/fixed/fixed.cu.checked"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the precheck refused fixed.cu, whose kernel is correct:\n${out}")
endif()
message(STATUS "precheck: racy.cu refused by the host compiler with its text, before nvcc; fixed.cu passed")
