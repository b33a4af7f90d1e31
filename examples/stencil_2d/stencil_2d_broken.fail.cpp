// The broken variant of examples/stencil_2d: compiled with -DWARDEN_DEFECT it must fail with the code
// registered in CMakeLists.txt; without it (the twin) it is the shipped example and compiles.
#include "stencil_2d.hpp"

int main() { return 0; }
