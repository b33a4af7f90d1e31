// benchmarks/contents_facts_bench.cpp built by nvcc: on a GPU, the launch measures a stated fact's
// buffer with the device's passes (launch/contents_on_device.hpp), and BM_fact_downloaded is the
// host's way it replaced, side by side in one run.
#include "../contents_facts_bench.cpp"
