// The same program compiled by nvcc: runs on the GPU when there is one.
#include "reverse_block_main.cpp"
