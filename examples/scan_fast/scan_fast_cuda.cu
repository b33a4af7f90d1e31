// The same program compiled by nvcc: runs on the GPU when there is one.
#include "scan_fast_main.cpp"
