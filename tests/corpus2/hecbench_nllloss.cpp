// HeCBench (zjin-lcf/HeCBench, commit f27000a5), src/nlll-cuda/main.cu, kernel
// nll_loss_forward_reduce2d_kernel<float, float, int, NLL_LOSS_THREADS> (PyTorch's 2-D negative
// log-likelihood loss, forward), ported by hand. One block: each thread sums, over its frames
// i = tid, tid + NLL_LOSS_THREADS, ..., -input[i * kdim + t] * weights[t] and weights[t] into its
// own elements of two shared arrays, for t = target[i] unless t == ignore_index; after the barrier
// thread 0 adds the arrays up and stores the loss (divided by the total weight when size_average)
// and the total weight. Launch as eval<float, int, GPU_THREADS>: grid(1), block(GPU_THREADS), for
// GPU_THREADS 64 .. 1024 (here 64 and 256), weights always given (d_weights), size_average true,
// ignore_index = n_classes / 2. Language pieces: `sm_inputs[tid] -= ...` is the tile's compound
// assignment `-=`, as written; the frame loop is w::for_range(k, tid, nframe, NLL_LOSS_THREADS);
// t and cur_weight, and thread 0's two sums, are w::locals; the int64_t parameters are
// w::value<long long>, size_average a w::value<bool>.
//
// ACCEPTED, no launch obligation: each thread updates only its own elements of the tiles until
// the barrier, and only thread 0 reads them after it; the loads at target's values are bounded at
// launch by target's measured contents, through the local t (never assigned, of target's type:
// it holds the load's value; before issue 34 launch refused it E101, "the index cannot be
// bounded"). Runs clean and equals the reference's loss and weight.
// A grid of two blocks (both would store output[0]) is refused at launch (E102: the kernel never
// refers to the block).
#include "../corpus/corpus.hpp"

#include <random>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

template <int NLL_LOSS_THREADS>
constexpr auto nll_loss_forward_reduce2d_kernel = [](auto k, auto output, auto total_weight, auto input, auto target, auto weights,
                                                     auto size_average, auto nframe, auto kdim, auto ignore_index) {
  return w::shared<float, NLL_LOSS_THREADS>(k, [&](auto k, auto sm_inputs) {
    return w::shared<float, NLL_LOSS_THREADS>(k, [&](auto k, auto acc_weight) {
      auto tid = k.thread_id();
      return w::seq(
          sm_inputs[tid] = 0.f, acc_weight[tid] = 0.f,
          w::for_range(k, tid, nframe, NLL_LOSS_THREADS, [&](auto k, auto i) {
            return w::local(k, target[i], [&](auto k, auto t) {  // index_t t = target[i];
              return w::when(t != ignore_index, w::local(k, weights[t], [&](auto, auto cur_weight) {
                               return w::seq(sm_inputs[tid] -= input[i * kdim + t] * cur_weight, acc_weight[tid] += cur_weight);
                             }));
            });
          }),
          w::sync(),
          w::when(tid == 0, w::locals(k, 0.f, 0.f, [&](auto k, auto output_acc, auto total_weight_acc) {
                    return w::seq(w::for_range(k, 0, NLL_LOSS_THREADS, [&](auto, auto i) {
                                    return w::seq(output_acc += sm_inputs[i], total_weight_acc += acc_weight[i]);
                                  }),
                                  total_weight[0] = total_weight_acc,
                                  w::when(size_average, output[0] = output_acc / total_weight_acc).otherwise(output[0] = output_acc));
                  })));
    });
  });
};

using Out = w::out<float>;
using InF = w::in<float>;
using InI = w::in<int>;
using Bool = w::value<bool>;
using I64 = w::value<long long>;

}  // namespace

WARDEN_KERNEL(nll_64_k, w::kernel<w::block<64>, Out, Out, InF, InI, InF, Bool, I64, I64, I64>(nll_loss_forward_reduce2d_kernel<64>)
                            .named("nll_loss_forward_reduce2d_kernel", "output", "total_weight", "input", "target", "weights",
                                   "size_average", "nframe", "kdim", "ignore_index"));
WARDEN_KERNEL(nll_256_k, w::kernel<w::block<256>, Out, Out, InF, InI, InF, Bool, I64, I64, I64>(nll_loss_forward_reduce2d_kernel<256>)
                             .named("nll_loss_forward_reduce2d_kernel", "output", "total_weight", "input", "target", "weights",
                                    "size_average", "nframe", "kdim", "ignore_index"));

TEST_CASE("corpus2 hecbench nll_loss_forward_reduce2d_kernel: a tile's -=, accepted, clean, equal to the reference", "[corpus2][hecbench]") {
  STATIC_REQUIRE(code_of<w::block<64>, Out, Out, InF, InI, InF, Bool, I64, I64, I64>(nll_loss_forward_reduce2d_kernel<64>) == code::none);
  CHECK(w::obligations_of(nll_64_k).empty());
  CHECK(w::obligations_of(nll_256_k).empty());
  const long long nframe = 1000, n_classes = 100, ignore_index = n_classes / 2;
  // driver<float, int>: input and weights uniform in [-1, 1), targets uniform in [0, n_classes).
  std::default_random_engine g(123);
  std::uniform_real_distribution<float> d1(-1.f, 1.f);
  std::uniform_int_distribution<int> d2(0, static_cast<int>(n_classes) - 1);
  std::vector<float> input(at(nframe * n_classes)), weights(at(nframe));
  std::vector<int> target(at(nframe));
  for (float& v : input) v = d1(g);
  for (float& v : weights) v = d1(g);
  for (int& v : target) v = d2(g);
  // reference.h: the same sums in frame order.
  double loss = 0, weight = 0;
  for (long long i = 0; i < nframe; ++i) {
    const int t = target[at(i)];
    if (t == ignore_index) continue;
    loss -= static_cast<double>(input[at(i * n_classes + t)]) * weights[at(t)];
    weight += weights[at(t)];
  }
  auto din = w::to_device(input);
  auto dtarget = w::to_device(target);
  auto dweights = w::to_device(weights);
  w::device_buffer<float> output(1), total_weight(1);
  auto check = [&](const w::recording& r) {
    CHECK(r.clean());
    CHECK(w::to_host(total_weight)[0] == Approx(weight).epsilon(1e-4));
    CHECK(w::to_host(output)[0] == Approx(loss / weight).epsilon(1e-4));
  };
  check(w::record(nll_64_k, w::grid(1), output, total_weight, din, dtarget, dweights, true, nframe, n_classes, ignore_index));
  check(w::record(nll_256_k, w::grid(1), output, total_weight, din, dtarget, dweights, true, nframe, n_classes, ignore_index));
  w::launch(w::on_cpu, nll_64_k, w::grid(1), output, total_weight, din, dtarget, dweights, false, nframe, n_classes, ignore_index);
  CHECK(w::to_host(output)[0] == Approx(loss).epsilon(1e-4));
  // Two blocks would both store output[0]: refused before anything runs.
  CHECK_THROWS_AS(w::launch(w::on_cpu, nll_64_k, w::grid(2), output, total_weight, din, dtarget, dweights, true, nframe, n_classes,
                            ignore_index),
                  w::grid_error);
}
