# Script behind the test package.find_package_consumer (see CMakeLists.txt beside it).

set(prefix "${WORKDIR}/prefix")
set(build "${WORKDIR}/build")
file(REMOVE_RECURSE "${WORKDIR}")

function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message("${out}")
    message(FATAL_ERROR "package test: ${what} failed (exit ${rc})")
  endif()
  message(STATUS "package test: ${what}: ok")
endfunction()

run_step("install warden into ${prefix}"
  ${CMAKE_COMMAND} --install "${WARDEN_BINARY_DIR}" --prefix "${prefix}")
run_step("configure the consumer"
  ${CMAKE_COMMAND} -S "${CONSUMER_SOURCE_DIR}" -B "${build}" -G "${GENERATOR}"
    -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_PREFIX_PATH=${prefix})
run_step("build the consumer" ${CMAKE_COMMAND} --build "${build}")
run_step("run the consumer" "${build}/consumer")
run_step("run the consumer on warden::runtime" "${build}/consumer_separate")
