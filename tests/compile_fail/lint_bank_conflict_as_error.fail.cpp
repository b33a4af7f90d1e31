// W050 [bank-conflict] as an error. The lints are warnings (deprecation warnings, so that g++,
// clang++ and nvcc all print them); a project that wants them to fail its build makes that
// warning an error, with -Werror=deprecated-declarations or, as here, a pragma. The case is the
// warning case of tests/compile_warn (an unpadded 32 x 32 transpose tile); its twin pads the tile
// and compiles.
#pragma GCC diagnostic error "-Wdeprecated-declarations"
#include "../compile_warn/transpose_unpadded.warn.cpp"
