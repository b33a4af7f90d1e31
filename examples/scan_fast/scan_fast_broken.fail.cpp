// The broken variant of examples/scan_fast: compiled with -DWARDEN_DEFECT it must fail with the
// code registered in CMakeLists.txt; without it (the twin) it is the shipped example and compiles.
#include "scan_fast.hpp"

int main() { return 0; }
