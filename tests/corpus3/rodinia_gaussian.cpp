// Rodinia, gaussian: yuhc/gpu-rodinia (commit 9c10d3ea), cuda/gaussian/gaussian.cu, kernels Fan1
// and Fan2 (host loop in ForwardSub), ported by hand. Gaussian elimination without pivoting, one
// column t per pair of launches. Fan1 (one thread per row below t): the multipliers
// m[Size * (gid + t + 1) + t] = a[Size * (gid + t + 1) + t] / a[Size * t + t], written with the
// original's pointer arithmetic *(m_cuda + ...) as an index. Fan2 (one thread per element of the
// trailing rows, x the row below t, y the column from t): a[Size * (xidx + 1 + t) + (yidx + t)] -=
// m[Size * (xidx + 1 + t) + t] * a[Size * t + (yidx + t)], and the threads of column yidx == 0
// also update b[xidx + 1 + t] -= m[Size * (xidx + 1 + t) + (yidx + t)] * b[t]. Each `if (...)
// return;` at the top is a guard around the rest (w::when of the negated condition). In CUDA
// `threadIdx.x + blockIdx.x * blockDim.x >= Size - 1 - t` compares in unsigned; warden's ids are
// int, and Size - 1 - t >= 1 on every launch of the host loop, so the comparison is the same. j1
// (Size - t on the host) is a parameter Fan2 does not read. m is only stored by Fan1 (w::out) and
// only loaded by Fan2 (w::in). Launch as ForwardSub: Fan1<<<ceil(Size / 512), 512>>>, Fan2 on
// 4 x 4 blocks with gridSize2d = Size / 4 + (!(Size % 4 ? 0 : 1)) (a ceiling) in x and y, for
// t = 0 .. Size - 2. Every launch overhangs: Fan1's 512 threads cover Size - 1 - t rows, Fan2's grid
// covers Size x Size for Size - 1 - t rows and Size - t columns (Size 37 is not a multiple of 4).
//
// Verdict: both ACCEPTED at compile time with launch obligations, and both RUN AS WRITTEN. Fan1:
// one, `Size >= 1` (two threads' rows Size * (gid + t + 1) + t are apart). Fan2: `t >= 0` for the
// stores a[Size * (xidx + 1 + t) + (yidx + t)] of two threads, and the pair load
// a[Size * t + (yidx + t)] (row t) vs those stores (rows below t) left to the launch, which lists
// both with its own values. Every launch of the host loop meets them: clean on every launch (Size
// 40 and 37; Fan1 also alone for Size 700, two blocks), and the eliminated a, m and b equal the
// reference.
#include "../corpus/corpus.hpp"

#include <algorithm>
#include <string>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

constexpr int MAXBLOCKSIZE = 512;
constexpr int BLOCK_SIZE_XY = 4;

// __global__ void Fan1(float *m_cuda, float *a_cuda, int Size, int t)
constexpr auto Fan1 = [](auto k, auto m_cuda, auto a_cuda, auto Size, auto t) {
  return w::when(!(k.thread_id() + k.block_id() * k.block_dim() >= Size - 1 - t),
                 m_cuda[Size * (k.block_dim() * k.block_id() + k.thread_id() + t + 1) + t] =
                     a_cuda[Size * (k.block_dim() * k.block_id() + k.thread_id() + t + 1) + t] / a_cuda[Size * t + t]);
};

// __global__ void Fan2(float *m_cuda, float *a_cuda, float *b_cuda, int Size, int j1, int t)
constexpr auto Fan2 = [](auto k, auto m_cuda, auto a_cuda, auto b_cuda, auto Size, auto /*j1*/, auto t) {
  auto xidx = k.block_id() * k.block_dim() + k.thread_id();
  auto yidx = k.block_id_y() * k.block_dim_y() + k.thread_id_y();
  return w::when(!(k.thread_id() + k.block_id() * k.block_dim() >= Size - 1 - t),
                 w::when(!(k.thread_id_y() + k.block_id_y() * k.block_dim_y() >= Size - t),
                         a_cuda[Size * (xidx + 1 + t) + (yidx + t)] -= m_cuda[Size * (xidx + 1 + t) + t] * a_cuda[Size * t + (yidx + t)],
                         w::when(yidx == 0, b_cuda[xidx + 1 + t] -= m_cuda[Size * (xidx + 1 + t) + (yidx + t)] * b_cuda[t])));
};

using Blk1 = w::block<MAXBLOCKSIZE>;
using Blk2 = w::block<BLOCK_SIZE_XY, BLOCK_SIZE_XY>;
using I = w::value<int>;

}  // namespace

#define FAN1_PARAMS Blk1, w::out<float>, w::in<float>, I, I
#define FAN2_PARAMS Blk2, w::in<float>, w::inout<float>, w::inout<float>, I, I, I

WARDEN_KERNEL(fan1_k, w::kernel<FAN1_PARAMS>(Fan1).named("Fan1", "m_cuda", "a_cuda", "Size", "t"));
WARDEN_KERNEL(fan2_k, w::kernel<FAN2_PARAMS>(Fan2).named("Fan2", "m_cuda", "a_cuda", "b_cuda", "Size", "j1", "t"));

namespace {

void init(int Size, std::vector<float>& a, std::vector<float>& b) {
  a.assign(at(Size * Size), 0.f);
  b.assign(at(Size), 1.f);
  for (int i = 0; i < Size; ++i)
    for (int j = 0; j < Size; ++j) a[at(i * Size + j)] = (i == j) ? 2.f * static_cast<float>(Size) : static_cast<float>((i * 7 + j * 3) % 11) - 5.f;
  for (int i = 0; i < Size; ++i) b[at(i)] = static_cast<float>(i % 5) + 1.f;
}

}  // namespace

TEST_CASE("rodinia gaussian Fan1 and Fan2: accepted with no obligation, clean over ForwardSub's launches, equal to the reference",
          "[corpus3][rodinia]") {
  STATIC_REQUIRE(code_of<FAN1_PARAMS>(Fan1) == code::none);
  STATIC_REQUIRE(code_of<FAN2_PARAMS>(Fan2) == code::none);
  // Fan1: the rows of two threads are apart if Size >= 1. Fan2: the stores into rows below t are
  // apart if t >= 0, and the loads of row t against them are left to the launch, which lists both
  // with its own values (every launch below passes).
  const std::string ob1 = w::obligations_of(fan1_k), ob2 = w::obligations_of(fan2_k);
  CAPTURE(ob1, ob2);
  CHECK(ob1.find("W010 holds for m_cuda[") == 0);
  CHECK(ob1.find(" if Size >= 1 (or one of them runs in no thread, or launch lists both with its own values and no two threads meet)\n") != std::string::npos);
  CHECK(std::count(ob1.begin(), ob1.end(), '\n') == 1);
  CHECK(ob2.find("W011 holds for a_cuda[") == 0);
  CHECK(ob2.find(" if t >= 0 (or one of them runs in no thread, or launch lists both with its own values and no two threads meet)\n") != std::string::npos);
  CHECK(ob2.find("W011 holds for a_cuda[(Size * t) + (((block_id.y * block_dim.y) + thread_id.y) + t)] and a_cuda[") != std::string::npos);
  CHECK(ob2.find(" if launch lists both with its own values and no two threads reach one element\n") != std::string::npos);
  CHECK(std::count(ob2.begin(), ob2.end(), '\n') == 2);

  for (int Size : {40, 37}) {
    CAPTURE(Size);
    std::vector<float> a, b, m(at(Size * Size), 0.f);
    init(Size, a, b);
    std::vector<float> ra = a, rb = b, rm = m;
    for (int t = 0; t < Size - 1; ++t) {  // ForwardSub on the host, as the kernels compute it
      for (int r = t + 1; r < Size; ++r) rm[at(Size * r + t)] = ra[at(Size * r + t)] / ra[at(Size * t + t)];
      for (int r = t + 1; r < Size; ++r) {
        for (int c = t; c < Size; ++c) ra[at(Size * r + c)] -= rm[at(Size * r + t)] * ra[at(Size * t + c)];
        rb[at(r)] -= rm[at(Size * r + t)] * rb[at(t)];
      }
    }
    auto m_cuda = w::to_device(m), a_cuda = w::to_device(a), b_cuda = w::to_device(b);
    const int grid_size = (Size / MAXBLOCKSIZE) + (!(Size % MAXBLOCKSIZE) ? 0 : 1);
    const int gridSize2d = (Size / BLOCK_SIZE_XY) + (!(Size % BLOCK_SIZE_XY ? 0 : 1));
    bool clean = true;
    for (int t = 0; t < (Size - 1); t++) {
      clean = clean && w::record(fan1_k, w::grid(grid_size), m_cuda, a_cuda, Size, t).clean();
      clean = clean && w::record(fan2_k, w::grid(gridSize2d, gridSize2d), m_cuda, a_cuda, b_cuda, Size, Size - t, t).clean();
    }
    CHECK(clean);
    corpus::check_close(w::to_host(m_cuda), rm, 1e-4);
    corpus::check_close(w::to_host(a_cuda), ra, 1e-4);
    corpus::check_close(w::to_host(b_cuda), rb, 1e-4);
  }

  // Fan1 on two blocks (Size 700): the first steps of the loop.
  const int Size = 700;
  std::vector<float> a, b, m(at(Size * Size), 0.f);
  init(Size, a, b);
  auto m_cuda = w::to_device(m), a_cuda = w::to_device(a);
  for (int t : {0, 1, 200}) {
    CHECK(w::record(fan1_k, w::grid((Size / MAXBLOCKSIZE) + (!(Size % MAXBLOCKSIZE) ? 0 : 1)), m_cuda, a_cuda, Size, t).clean());
    for (int r = t + 1; r < Size; ++r) m[at(Size * r + t)] = a[at(Size * r + t)] / a[at(Size * t + t)];
  }
  CHECK(w::to_host(m_cuda) == m);
}
