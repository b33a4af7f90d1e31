// The same program compiled by nvcc: runs on the GPU when there is one.
#include "matmul_fast_main.cpp"
