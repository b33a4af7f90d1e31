// The same program compiled by nvcc: on a GPU, capture is CUDA stream capture and replay one
// cudaGraphLaunch.
#include "graph_steps_main.cpp"
