// W051 [uncoalesced] as an error (see lint_bank_conflict_as_error.fail.cpp): the warning case of
// tests/compile_warn (in[i * 32], a warp's lanes 128 bytes apart) with deprecation warnings made
// errors; its twin reads in[i] and compiles.
#pragma GCC diagnostic error "-Wdeprecated-declarations"
#include "../compile_warn/strided_load.warn.cpp"
