# warden_host_precheck(<target>): before nvcc compiles each .cu source of <target>, the host C++
# compiler parses it as C++ (-fsyntax-only; warden's cpu path, where every kernel is checked as
# under nvcc), and a kernel the checker rejects stops the build there, with the host compiler's
# diagnostic: one error, the code, the explanation as text. nvcc 13's front end cannot print that
# text (it rejects a static_assert message that is not a literal and prints a class template's
# text argument one character at a time: docs/diagnostics.md, "nvcc"), so without this a rejected
# kernel in a .cu file reads as a list of characters. Costs one host front-end pass per .cu file,
# re-run when the file or anything it includes changes (a depfile). A .cu file that uses CUDA's
# own syntax (__global__, <<<>>>) cannot be parsed as C++: give such files none of warden's
# kernels, or leave their target out; so is one that includes CUDA's headers or uses its types
# (the parse has no CUDA include path), and a target whose compile definitions are generator
# expressions on the compile language.
#
#   warden_host_precheck(my_cuda_program)
function(warden_host_precheck target)
  set(_warden_precheck_script "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/warden_precheck.cmake")
  get_target_property(sources ${target} SOURCES)
  get_target_property(source_dir ${target} SOURCE_DIR)
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    set(budget -fconstexpr-steps=2147483647)
  else()
    set(budget -fconstexpr-ops-limit=4294967295)
  endif()
  set(includes "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(definitions "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  foreach(source IN LISTS sources)
    if(NOT source MATCHES "\\.cu$")
      continue()
    endif()
    get_filename_component(path "${source}" ABSOLUTE BASE_DIR "${source_dir}")
    get_filename_component(name "${source}" NAME)
    # Named by the source's path below the target's folder: a/main.cu and b/main.cu stay apart.
    file(RELATIVE_PATH relative "${source_dir}" "${path}")
    string(REPLACE "/" "_" relative "${relative}")
    string(REPLACE ".." "up" relative "${relative}")
    set(stamp "${CMAKE_CURRENT_BINARY_DIR}/warden_host_precheck/${target}/${relative}.checked")
    set(table "${CMAKE_CURRENT_BINARY_DIR}/warden_host_precheck/${target}/${relative}.table.hpp")
    add_custom_command(OUTPUT "${stamp}" "${table}"
      COMMAND "${CMAKE_COMMAND}" "-DSOURCE=${name}" "-DTABLE=${table}" "-DSTAMP=${stamp}"
              -P "${_warden_precheck_script}" --
              "${CMAKE_CXX_COMPILER}" -std=c++20 -fsyntax-only -x c++ ${budget}
              -fdiagnostics-color=never -Wdeprecated-declarations -DWARDEN_EMIT_CHECKED_TABLE=1
              "$<$<BOOL:${includes}>:-I$<JOIN:${includes},;-I>>"
              "$<$<BOOL:${definitions}>:-D$<JOIN:${definitions},;-D>>"
              -MD -MF "${stamp}.d" -MT "${stamp}" "${path}"
      DEPENDS "${path}" "${_warden_precheck_script}"
      DEPFILE "${stamp}.d"
      COMMENT "warden: checking the kernels of ${name} with the host compiler"
      COMMAND_EXPAND_LISTS
      VERBATIM)
    # In the target's own folder's scope, wherever this is called from. nvcc's phases read the
    # table first (WARDEN_CHECKED_TABLE): they build each kernel and its fingerprint without the
    # checker, and a kernel in no row of the table does not compile (W006).
    set_property(SOURCE "${path}" TARGET_DIRECTORY ${target} APPEND PROPERTY OBJECT_DEPENDS "${stamp}" "${table}")
    set_property(SOURCE "${path}" TARGET_DIRECTORY ${target} APPEND PROPERTY COMPILE_OPTIONS -include "${table}")
  endforeach()
endfunction()
