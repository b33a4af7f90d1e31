// Rodinia, backprop: yuhc/gpu-rodinia (commit 9c10d3ea), cuda/backprop/backprop_cuda_kernel.cu,
// kernels bpnn_layerforward_CUDA and bpnn_adjust_weights_cuda (host code in
// cuda/backprop/backprop_cuda.cu, bpnn_train_cuda; WIDTH = HEIGHT = 16, ETA = MOMENTUM = 0.3 in
// backprop.h), ported by hand. The weights are one (in + 1) x (hid + 1) row-major array; block by
// takes input rows 16 * by + 1 .. 16 * by + 16, thread (tx, ty) the element
// index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1).
// layerforward: column tx == 0 loads the block's 16 inputs into shared input_node; every thread
// loads its weight into the shared 16 x 16 weight_matrix, multiplies it by its input, then a tree
// over ty (for i = 1 .. log2(16): rows ty % 2^i == 0 add row ty + 2^(i-1)), barriers between steps;
// every thread stores its (partially reduced) element back to input_hidden_cuda[index], and column
// tx == 0 stores row 0 of the tile, weight_matrix[0][ty], to hidden_partial_sum[by * hid + ty].
// adjust_weights: every thread updates w[index] and oldw[index] from delta[tx + 1], ly[16 * by + ty + 1]
// and oldw[index]; after a barrier, row ty == 0 of block 0 also updates row 0, w[tx + 1] and oldw[tx + 1].
// Translation: the shared arrays are w::shared tiles (weight_matrix[ty][tx] is tile(ty, tx)).
// `for (int i = 1; i <= __log2f(HEIGHT); i++)` runs i = 1 .. 4: __log2f(16) is 4, and the port's
// loop is w::for_range(k, 1, 5) (warden has no log2; HEIGHT is a constant). `int power_two =
// __powf(2, i);` is w::convert<int>(w::fast::pow(2.f, w::convert<float>(i))), as written (a float
// power converted to int). ETA and MOMENTUM are double literals (0.3), so the updates are computed in
// double and stored into floats, as written. output_hidden_cuda and `in` are parameters
// layerforward does not read. Launch as bpnn_train_cuda: num_blocks = in / 16, grid (1, num_blocks),
// threads (16, 16), hid = 16 (backprop.c's bpnn_create(layer_size, 16, 1)); in = 256 and 640 here
// (65536 in the benchmark's run). The grid covers the weights exactly; there is no overhang.
//
// Verdict: bpnn_layerforward_CUDA REFUSED at compile time with W020: the tree's load
// weight_matrix[ty + power_two / 2][tx] in the phase of the store weight_matrix[ty][tx], where
// power_two = (int)__powf(2, i) is a float function's result, which the checker takes as data
// (any value), so it cannot tell the loaded row from the stored rows of other threads. With
// `power_two = 1 << i` (the same values; layerforward_shift below, a scratch variant) it is
// accepted. Trusted, the launch still refuses it, E101: "load tile1[thread_id.y + (f(f (2, ...),
// ...) / 2)]: the index cannot be bounded (it depends on loaded data, a thread-private variable or
// a function)". Under w::record_anyway the trusted copy is clean (no race, nothing out of bounds)
// and its weights and partial sums equal the reference exactly.
// bpnn_adjust_weights_cuda ACCEPTED at compile time with six launch obligations (the rows of two
// blocks apart if hid >= 15, for w and oldw; the block-0 row-0 updates w[tx + 1], oldw[tx + 1]
// against the other blocks' stores and loads left to the launch), which the host's hid = 16 meets:
// RUNS AS WRITTEN, clean and equal to the reference.
#include "../corpus/corpus.hpp"

#include <algorithm>
#include <string>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int WIDTH = 16, HEIGHT = 16;
constexpr double ETA = 0.3, MOMENTUM = 0.3;

// __global__ void bpnn_layerforward_CUDA(float *input_cuda, float *output_hidden_cuda,
//     float *input_hidden_cuda, float *hidden_partial_sum, int in, int hid)
constexpr auto bpnn_layerforward_CUDA = [](auto k, auto input_cuda, auto /*output_hidden_cuda*/, auto input_hidden_cuda, auto hidden_partial_sum,
                                           auto /*in*/, auto hid) {
  return w::shared<float, HEIGHT>(k, [&](auto k, auto input_node) {
    return w::shared<float, HEIGHT, WIDTH>(k, [&](auto k, auto weight_matrix) {
      auto by = k.block_id_y();
      auto tx = k.thread_id();
      auto ty = k.thread_id_y();
      auto index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
      auto index_in = HEIGHT * by + ty + 1;
      return w::seq(w::when(tx == 0, input_node[ty] = input_cuda[index_in]), w::sync(),  //
                    weight_matrix(ty, tx) = input_hidden_cuda[index], w::sync(),        //
                    weight_matrix(ty, tx) = weight_matrix(ty, tx) * input_node[ty], w::sync(),
                    w::for_range(k, 1, 5, [&](auto, auto i) {  // for (int i = 1; i <= __log2f(HEIGHT); i++)
                      auto power_two = w::convert<int>(w::fast::pow(2.f, w::convert<float>(i)));  // int power_two = __powf(2, i);
                      return w::seq(w::when(ty % power_two == 0, weight_matrix(ty, tx) = weight_matrix(ty, tx) + weight_matrix(ty + power_two / 2, tx)),
                                    w::sync());
                    }),
                    input_hidden_cuda[index] = weight_matrix(ty, tx), w::sync(),
                    w::when(tx == 0, hidden_partial_sum[by * hid + ty] = weight_matrix(tx, ty)));
    });
  });
};

// The same with `int power_two = 1 << i;` (the same values): a scratch variant, not the original.
constexpr auto layerforward_shift = [](auto k, auto input_cuda, auto /*output_hidden_cuda*/, auto input_hidden_cuda, auto hidden_partial_sum,
                                       auto /*in*/, auto hid) {
  return w::shared<float, HEIGHT>(k, [&](auto k, auto input_node) {
    return w::shared<float, HEIGHT, WIDTH>(k, [&](auto k, auto weight_matrix) {
      auto by = k.block_id_y();
      auto tx = k.thread_id();
      auto ty = k.thread_id_y();
      auto index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
      auto index_in = HEIGHT * by + ty + 1;
      return w::seq(w::when(tx == 0, input_node[ty] = input_cuda[index_in]), w::sync(),  //
                    weight_matrix(ty, tx) = input_hidden_cuda[index], w::sync(),        //
                    weight_matrix(ty, tx) = weight_matrix(ty, tx) * input_node[ty], w::sync(),
                    w::for_range(k, 1, 5, [&](auto, auto i) {
                      auto power_two = 1 << i;
                      return w::seq(w::when(ty % power_two == 0, weight_matrix(ty, tx) = weight_matrix(ty, tx) + weight_matrix(ty + power_two / 2, tx)),
                                    w::sync());
                    }),
                    input_hidden_cuda[index] = weight_matrix(ty, tx), w::sync(),
                    w::when(tx == 0, hidden_partial_sum[by * hid + ty] = weight_matrix(tx, ty)));
    });
  });
};

// __global__ void bpnn_adjust_weights_cuda(float *delta, int hid, float *ly, int in, float *w, float *oldw)
constexpr auto bpnn_adjust_weights_cuda = [](auto k, auto delta, auto hid, auto ly, auto /*in*/, auto w_, auto oldw) {
  auto by = k.block_id_y();
  auto tx = k.thread_id();
  auto ty = k.thread_id_y();
  auto index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
  auto index_y = HEIGHT * by + ty + 1;
  auto index_x = tx + 1;
  return w::seq(w_[index] += ((ETA * delta[index_x] * ly[index_y]) + (MOMENTUM * oldw[index])),
                oldw[index] = ((ETA * delta[index_x] * ly[index_y]) + (MOMENTUM * oldw[index])),  //
                w::sync(),
                w::when(ty == 0 && by == 0, w_[index_x] += ((ETA * delta[index_x]) + (MOMENTUM * oldw[index_x])),
                        oldw[index_x] = ((ETA * delta[index_x]) + (MOMENTUM * oldw[index_x]))));
};

using Blk = w::block<WIDTH, HEIGHT>;
using I = w::value<int>;

}  // namespace

#define LF_PARAMS Blk, w::in<float>, w::in<float>, w::inout<float>, w::out<float>, I, I
#define AW_PARAMS Blk, w::in<float>, I, w::in<float>, I, w::inout<float>, w::inout<float>

WARDEN_KERNEL(layerforward_trusting_k, w::kernel<LF_PARAMS>(w::testing::trusting(bpnn_layerforward_CUDA))
                                           .named("bpnn_layerforward_CUDA", "input_cuda", "output_hidden_cuda", "input_hidden_cuda",
                                                  "hidden_partial_sum", "in", "hid"));
WARDEN_KERNEL(adjust_weights_k, w::kernel<AW_PARAMS>(bpnn_adjust_weights_cuda).named("bpnn_adjust_weights_cuda", "delta", "hid", "ly", "in", "w", "oldw"));

TEST_CASE("rodinia backprop: layerforward refused W020 (its __powf index), trusted and recorded anyway equal to the reference, adjust_weights accepted, runs as written", "[corpus3][rodinia]") {
  STATIC_REQUIRE(code_of<LF_PARAMS>(bpnn_layerforward_CUDA) == code::W020);
  STATIC_REQUIRE(code_of<LF_PARAMS>(layerforward_shift) == code::none);
  STATIC_REQUIRE(code_of<AW_PARAMS>(bpnn_adjust_weights_cuda) == code::none);
  // adjust_weights: the rows of two blocks' w[index] and oldw[index] are apart if hid >= 15; the
  // block-0 row-0 updates w[tx + 1], oldw[tx + 1] against the other blocks' are left to the launch.
  const std::string ob = w::obligations_of(adjust_weights_k);
  CAPTURE(ob);
  CHECK(ob.find("W011 holds for w[((((((hid + 1) * 16) * block_id.y) + ((hid + 1) * thread_id.y)) + thread_id.x) + 1) + (hid + 1)] and w[") == 0);
  CHECK(ob.find(" if hid >= 15 (or one of them runs in no thread, or launch lists both with its own values and no two threads meet)\n") != std::string::npos);
  CHECK(ob.find("W010 holds for oldw[((((((hid + 1) * 16) * block_id.y) + ((hid + 1) * thread_id.y)) + thread_id.x) + 1) + (hid + 1)] and oldw[thread_id.x + 1] if launch lists both with its own values and no two threads reach one element\n") != std::string::npos);
  CHECK(std::count(ob.begin(), ob.end(), '\n') == 6);

  const int hid = 16;
  for (int in : {256, 640}) {
    CAPTURE(in);
    const int num_blocks = in / 16;
    std::vector<float> input(at(in + 1)), weights(at((in + 1) * (hid + 1))), prev(weights.size()), delta(at(hid + 1));
    for (int i = 0; i <= in; ++i) input[at(i)] = static_cast<float>((i * 13) % 7) * 0.125f;
    for (std::size_t e = 0; e < weights.size(); ++e) {
      weights[e] = static_cast<float>((e * 29) % 23) * 0.0625f - 0.5f;
      prev[e] = static_cast<float>((e * 17) % 19) * 0.03125f;
    }
    for (int j = 0; j <= hid; ++j) delta[at(j)] = 0.01f * static_cast<float>(j % 5) - 0.02f;

    // layerforward on the host, block by block, the tree as the kernel runs it
    std::vector<float> ref_w = weights, ref_sum(at(num_blocks * WIDTH));
    for (int by = 0; by < num_blocks; ++by) {
      float wm[HEIGHT][WIDTH];
      for (int ty = 0; ty < HEIGHT; ++ty)
        for (int tx = 0; tx < WIDTH; ++tx)
          wm[ty][tx] = weights[at((hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1))] * input[at(HEIGHT * by + ty + 1)];
      for (int i = 1; i <= 4; ++i) {
        const int p = 1 << i;
        for (int ty = 0; ty < HEIGHT; ty += p)
          for (int tx = 0; tx < WIDTH; ++tx) wm[ty][tx] = wm[ty][tx] + wm[ty + p / 2][tx];
      }
      for (int ty = 0; ty < HEIGHT; ++ty) {
        for (int tx = 0; tx < WIDTH; ++tx) ref_w[at((hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1))] = wm[ty][tx];
        ref_sum[at(by * hid + ty)] = wm[0][ty];
      }
    }
    auto input_cuda = w::to_device(input);
    w::device_buffer<float> output_hidden_cuda(at(hid + 1));
    auto input_hidden_cuda = w::to_device(weights);
    w::device_buffer<float> hidden_partial_sum(at(num_blocks * WIDTH));
    const auto grid = w::grid(1, num_blocks);
    // Trusted, the launch still refuses the tree's load weight_matrix[ty + power_two / 2][tx] (E101:
    // its index reads a float power); recorded anyway: no race, nothing out of bounds.
    CHECK_THROWS_AS(w::launch(w::on_cpu, layerforward_trusting_k, grid, input_cuda, output_hidden_cuda, input_hidden_cuda, hidden_partial_sum, in, hid),
                    w::bounds_error);
    auto r = w::record_anyway(layerforward_trusting_k, grid, input_cuda, output_hidden_cuda, input_hidden_cuda, hidden_partial_sum, in, hid);
    CHECK(r.refusal().find("E101 [out-of-bounds] layerforward_trusting_k: load tile1[thread_id.y + (f(f") == 0);
    CHECK(r.refusal().find("the index cannot be bounded (it depends on loaded data, a thread-private variable or a function)") != std::string::npos);
    CHECK(r.clean());
    CHECK(w::to_host(input_hidden_cuda) == ref_w);
    CHECK(w::to_host(hidden_partial_sum) == ref_sum);

    // adjust_weights on the host (ly is the input layer, as bpnn_train_cuda passes input_cuda)
    std::vector<float> rw = weights, rold = prev;
    for (int r = 1; r <= in; ++r)
      for (int c = 1; c <= hid; ++c) {
        const std::size_t e = at((hid + 1) * r + c);
        const double upd = (ETA * delta[at(c)] * input[at(r)]) + (MOMENTUM * prev[e]);
        rw[e] = static_cast<float>(rw[e] + upd);
        rold[e] = static_cast<float>(upd);
      }
    for (int c = 1; c <= hid; ++c) {
      const double upd = (ETA * delta[at(c)]) + (MOMENTUM * rold[at(c)]);
      rw[at(c)] = static_cast<float>(rw[at(c)] + upd);
      rold[at(c)] = static_cast<float>(upd);
    }
    auto d_delta = w::to_device(delta), d_w = w::to_device(weights), d_old = w::to_device(prev);
    CHECK(w::record(adjust_weights_k, grid, d_delta, hid, input_cuda, in, d_w, d_old).clean());
    corpus::check_close(w::to_host(d_w), rw, 1e-6);
    corpus::check_close(w::to_host(d_old), rold, 1e-6);
  }
}
