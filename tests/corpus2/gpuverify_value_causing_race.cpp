// GPUVerify test suite: mc-imperial/gpuverify, testsuite/CUDA/param_values/value_causing_race/kernel.cu,
// kernel `example` (marked `//xfail:NOT_ALL_VERIFIED`, with the witness "Write by thread 200 /
// Write by thread 15 / x = 185", run with --gridDim=1 --blockDim=512). Ported by hand:
//   if (threadIdx.x == 15)  A[threadIdx.x + x] = threadIdx.x;
//   if (threadIdx.x == 200) A[threadIdx.x] = threadIdx.x;
// x is the kernel's int parameter, under the annotations __requires(x >= 0) and
// __requires(x < 1000), which the second variant states as w::given (a fact every launch checks).
// Launch as the test: one block of 512 threads. A holds 1015 floats (enough for any x < 1000).
//
// RACY, as the suite marks it: for x = 185 threads 15 and 200 of the one block both store A[200]
// in the same phase (a global write-write race inside a block, on a value parameter). For any other
// x the two stores are to different elements.
// VERDICT: the two stores are left to the launch (global_at_launch; before issue 32's item 1 the
// kernel was refused at compile time, W010, for every x): A[thread_id.x + x] reads the parameter x,
// so the launch lists both stores with its own x. The suite's witness, x = 185, is REFUSED AT
// LAUNCH (E106), naming threads 15 and 200 and element 200; x = 0 and x = 999 run clean, equal to
// the reference. The trusting() copy, recorded, reports the race for x = 185.
#include "../corpus/corpus.hpp"

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

// __global__ void example(float* A, int x)
constexpr auto example = [](auto k, auto A, auto x) {
  return w::seq(w::when(k.thread_id() == 15, A[k.thread_id() + x] = w::convert<float>(k.thread_id())),
                w::when(k.thread_id() == 200, A[k.thread_id()] = w::convert<float>(k.thread_id())));
};
// The same with the test's __requires(x >= 0); __requires(x < 1000); as a stated fact.
constexpr auto example_requires = [](auto k, auto A, auto x) {
  return w::given(x >= 0 && x < 1000, w::seq(w::when(k.thread_id() == 15, A[k.thread_id() + x] = w::convert<float>(k.thread_id())),
                                             w::when(k.thread_id() == 200, A[k.thread_id()] = w::convert<float>(k.thread_id()))));
};

using Blk = w::block<512>;
using V = w::value<int>;

}  // namespace

WARDEN_KERNEL(example_trusting_k, w::kernel<Blk, w::out<float>, V>(w::testing::trusting(example)).named("example", "A", "x"));
WARDEN_KERNEL(example_k, w::kernel<Blk, w::out<float>, V>(example).named("example", "A", "x"));
WARDEN_KERNEL(example_requires_k, w::kernel<Blk, w::out<float>, V>(example_requires).named("example", "A", "x"));

TEST_CASE("corpus2 gpuverify param_values/value_causing_race: racy for x = 185, refused at that launch (E106), the race is real",
          "[corpus2][gpuverify]") {
  // Stores A[15 + x] (thread 15) and A[200] (thread 200) in one phase: equal when x = 185.
  STATIC_REQUIRE(w::testing::left_to_launch<Blk, w::out<float>, V>(example));
  STATIC_REQUIRE(w::testing::left_to_launch<Blk, w::out<float>, V>(example_requires));
  auto refused_at_185 = [](const auto& kernel) {
    w::device_buffer<float> da(1015);
    const std::string e = corpus::e106_of([&] { w::launch(w::on_cpu, kernel, w::grid(1), da, 185); });
    CAPTURE(e);
    const auto r = w::record(example_trusting_k, w::grid(1), da, 185);
    CHECK(w::testing::launch_pair_meets(kernel, e, r));  // the pair E106 names is this run's race
    CHECK(e.find("W010 for A[thread_id.x + x] and A[thread_id.x]: decided with this launch's numbers (x = 185), thread 15 of block 0 and "
                 "thread 200 of block 0 both reach element 200") != std::string::npos);
  };
  refused_at_185(example_k);
  refused_at_185(example_requires_k);
  {
    w::device_buffer<float> da(1015);
    const auto r = w::record(example_trusting_k, w::grid(1), da, 185);
    CHECK_FALSE(r.clean());
    CHECK(r.report().find("write-write race") != std::string::npos);
  }
  for (int x : {0, 999}) {
    CAPTURE(x);
    auto da = w::to_device(std::vector<float>(1015, -1.f));
    std::vector<float> ref(1015, -1.f);
    ref[at(15 + x)] = 15.f;
    ref[200] = 200.f;
    CHECK(w::record(example_k, w::grid(1), da, x).clean());
    CHECK(w::to_host(da) == ref);
    CHECK(w::record(example_requires_k, w::grid(1), da, x).clean());
  }
}
