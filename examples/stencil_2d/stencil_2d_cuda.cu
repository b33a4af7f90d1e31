// The same program compiled by nvcc: runs on the GPU when there is one.
#include "stencil_2d_main.cpp"
