# Passes when every object in OBJECTS ("a|b") refers to each symbol in SYMBOLS ("x|y") without
# defining it (nm: "U"), i.e. the code comes from a library, not from the object itself.
#   cmake -DNM=<nm> -DOBJECTS=... -DSYMBOLS=... -P undefined_symbols_check.cmake
string(REPLACE "|" ";" objects "${OBJECTS}")
string(REPLACE "|" ";" symbols "${SYMBOLS}")
foreach(object IN LISTS objects)
  execute_process(COMMAND "${NM}" -C "${object}" OUTPUT_VARIABLE table RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "nm failed on ${object}")
  endif()
  foreach(symbol IN LISTS symbols)
    string(REGEX MATCH "U [^\n]*${symbol}\\(" used "${table}")
    string(REGEX MATCH "[0-9a-f]+ [TtWw] [^\n]*${symbol}\\(" defined "${table}")
    if(NOT used OR defined)
      message(FATAL_ERROR "${object}: ${symbol} is ${defined}${used} (expected only a reference, U)")
    endif()
    message(STATUS "${object}: ${used}")
  endforeach()
endforeach()
