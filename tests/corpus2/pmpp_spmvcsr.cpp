// "Programming Massively Parallel Processors", 3rd edition, chapter 10, SpMV on a CSR matrix
// (one thread per row), as published in nvixnu/pmpp__programming_massively_parallel_processors,
// src/chapter_10/ch10__spmv.cu (commit 07eacad6), kernel ch10__csr_spmv_kernel, ported by hand:
// y[row] += sum over elem in [row_ptr[row], row_ptr[row + 1]) of data[elem] * v[col_index[elem]],
// the sum kept in a float (float dot = 0; as written, though the data are doubles). num_rows is
// the kernel's int parameter. Launch as ch10__csr_spmv_device with src/main.cu's configuration:
// block_dim = 1024, grid_dim = ceil(rows / 1024.).
//
// ACCEPTED at compile time (one thread per row: each stores only y[row]; everything else is a
// load), REFUSED AT LAUNCH on every launch, E101: elem runs between two loaded row pointers and v
// is indexed by a loaded column, so no bound on m_data[elem], m_col_index[elem] or
// v[m_col_index[elem]] can be derived (true of any CSR kernel: the bounds live in the data). What
// it needed to run: a guard elem >= 0 && elem < m_data.size() && elem < m_col_index.size() on the
// loop body and a clamp of the column into [0, v.size() - 1] (a guard on a loaded value does not
// narrow it; both lower bounds are needed). That variant runs clean on three matrices (with empty
// rows) and matches the reference, whose sum is a float as in the original.
#include "../corpus/corpus.hpp"

#include <vector>

namespace w = warden;
using w::diagnostic::code;
using w::testing::code_of;
using corpus::at;

namespace {

// __global__ void ch10__csr_spmv_kernel(double *m_data, int *m_col_index, int *m_row_ptr,
//                                       const int num_rows, double *v, double *y)
constexpr auto csr_spmv = [](auto k, auto m_data, auto m_col_index, auto m_row_ptr, auto num_rows, auto v, auto y) {
  auto row = k.block_id() * k.block_dim() + k.thread_id();
  return w::when(row < num_rows, w::local<float>(k, 0.f, [&](auto k, auto dot) {
                   return w::seq(w::for_range(k, m_row_ptr[row], m_row_ptr[row + 1],
                                              [&](auto, auto elem) { return dot += m_data[elem] * v[m_col_index[elem]]; }),
                                 y[row] += dot);
                 }));
};

// What launch needs: elem guarded against m_data and m_col_index, and the column clamped into v
// (a guard does not narrow a loaded value, so a column index needs a clamp).
constexpr auto csr_spmv_guarded = [](auto k, auto m_data, auto m_col_index, auto m_row_ptr, auto num_rows, auto v, auto y) {
  auto row = k.block_id() * k.block_dim() + k.thread_id();
  return w::when(row < num_rows, w::local<float>(k, 0.f, [&](auto k, auto dot) {
                   return w::seq(w::for_range(k, m_row_ptr[row], m_row_ptr[row + 1],
                                              [&](auto, auto elem) {
                                                return w::when(elem >= 0 && elem < m_data.size() && elem < m_col_index.size(),
                                                               dot += m_data[elem] * v[w::max(0, w::min(m_col_index[elem], v.size() - 1))]);
                                              }),
                                 y[row] += dot);
                 }));
};

using Blk = w::block<1024>;

}  // namespace

#define CSR_PARAMS Blk, w::in<double>, w::in<int>, w::in<int>, w::value<int>, w::in<double>, w::inout<double>

WARDEN_KERNEL(csr_k, w::kernel<CSR_PARAMS>(csr_spmv)
                         .named("ch10__csr_spmv_kernel", "m_data", "m_col_index", "m_row_ptr", "num_rows", "v", "y"));
WARDEN_KERNEL(csr_guarded_k, w::kernel<CSR_PARAMS>(csr_spmv_guarded)
                                 .named("ch10__csr_spmv_kernel", "m_data", "m_col_index", "m_row_ptr", "num_rows", "v", "y"));

namespace {

struct csr {
  std::vector<double> data;
  std::vector<int> col_idx, row_ptr{0};
};

// rows x cols with r % 7 nonzeros in row r (empty rows included).
csr make(int rows, int cols) {
  csr m;
  for (int r = 0; r < rows; ++r) {
    for (int j = 0; j < r % 7; ++j) {
      m.col_idx.push_back((r * 31 + j * 17) % cols);
      m.data.push_back(0.5 * j - 1.0 + r % 3);
    }
    m.row_ptr.push_back(static_cast<int>(m.col_idx.size()));
  }
  return m;
}

}  // namespace

TEST_CASE("corpus2 pmpp csr_spmv: accepted, refused at launch E101, with its indices guarded and clamped, clean", "[corpus2][pmpp]") {
  STATIC_REQUIRE(code_of<CSR_PARAMS>(csr_spmv) == code::none);
  STATIC_REQUIRE(code_of<CSR_PARAMS>(csr_spmv_guarded) == code::none);
  CHECK(w::obligations_of(csr_k).empty());
  CHECK(w::obligations_of(csr_guarded_k).empty());
  for (auto [rows, cols] : {std::pair{1500, 700}, std::pair{1024, 1024}, std::pair{37, 5}}) {
    CAPTURE(rows, cols);
    const csr m = make(rows, cols);
    std::vector<double> v(at(cols)), y0(at(rows));
    for (int c = 0; c < cols; ++c) v[at(c)] = 0.25 * (c % 11) - 1.0;
    for (int r = 0; r < rows; ++r) y0[at(r)] = 0.125 * (r % 5);
    std::vector<double> ref = y0;  // y[row] += dot, dot a float as in the original
    for (int r = 0; r < rows; ++r) {
      float dot = 0.f;
      for (int e = m.row_ptr[at(r)]; e < m.row_ptr[at(r + 1)]; ++e) dot += m.data[at(e)] * v[at(m.col_idx[at(e)])];
      ref[at(r)] += dot;
    }
    auto d_data = w::to_device(m.data);
    auto d_col = w::to_device(m.col_idx);
    auto d_ptr = w::to_device(m.row_ptr);
    auto d_v = w::to_device(v);
    auto d_y = w::to_device(y0);
    const auto grid = w::grid((rows + 1023) / 1024);  // grid_dim = ceil(rows / (double)block_dim)
    // As written: elem runs between two loaded row pointers and v is indexed by a loaded column,
    // so launch cannot bound m_data[elem], m_col_index[elem] or v[m_col_index[elem]].
    try {
      (void)w::record(csr_k, grid, d_data, d_col, d_ptr, rows, d_v, d_y);
      FAIL("the unguarded CSR kernel launched");
    } catch (const w::bounds_error& e) {
      CHECK_THAT(e.what(), Catch::Matchers::StartsWith("E101"));
      CHECK_THAT(e.what(), Catch::Matchers::Contains("load m_data[i1]: the index cannot be bounded"));
    }
    CHECK(w::record(csr_guarded_k, grid, d_data, d_col, d_ptr, rows, d_v, d_y).clean());
    corpus::check_close(w::to_host(d_y), ref, 1e-6);
  }
}
