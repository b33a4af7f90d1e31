// The same program compiled by nvcc: runs on the GPU when there is one.
#include "saxpy_main.cpp"
