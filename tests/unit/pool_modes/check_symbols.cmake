# pool_modes_test's symbols: the debug unit's pool entities are in warden's pool_debug_1 inline
# namespace and the release unit's in pool_debug_0, never the other's.
# Usage: cmake -DNM=nm -DDEBUG_OBJECT=... -DRELEASE_OBJECT=... -P check_symbols.cmake
foreach(unit DEBUG RELEASE)
  execute_process(COMMAND "${NM}" -C "${${unit}_OBJECT}" OUTPUT_VARIABLE symbols RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${NM} -C ${${unit}_OBJECT} failed")
  endif()
  if(unit STREQUAL DEBUG)
    set(own pool_debug_1)
    set(other pool_debug_0)
  else()
    set(own pool_debug_0)
    set(other pool_debug_1)
  endif()
  # Entities that every optimisation level emits (pool_core's members may all be inlined).
  foreach(entity "detail::${own}::default_pool_registry<warden::space::device>::instance()"
                 "warden::${own}::default_pool<warden::space::device>" "warden::${own}::buffer<float, warden::space::device>::~buffer")
    string(FIND "${symbols}" "${entity}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${unit} unit: no symbol ${entity} in ${${unit}_OBJECT}")
    endif()
  endforeach()
  string(FIND "${symbols}" "${other}" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "${unit} unit: a symbol of the other mode (${other}) in ${${unit}_OBJECT}")
  endif()
  message(STATUS "${unit} unit: its pool symbols are in ${own}")
endforeach()
