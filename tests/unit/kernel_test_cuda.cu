// kernel_test.cpp compiled by nvcc: the same kernels through the cuda backend (on a GPU) or the
// cpu backend (without one), against the same plain C++ references.
#include "kernel_test.cpp"
