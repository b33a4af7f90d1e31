// "Programming Massively Parallel Processors", 3rd edition, chapter 10, SpMV on a CSR matrix
// (one thread per row), as published in nvixnu/pmpp__programming_massively_parallel_processors,
// src/chapter_10/ch10__spmv.cu (commit 07eacad6), kernel ch10__csr_spmv_kernel, ported by hand:
// y[row] += sum over elem in [row_ptr[row], row_ptr[row + 1]) of data[elem] * v[col_index[elem]],
// the sum kept in a float (float dot = 0; as written, though the data are doubles). num_rows is
// the kernel's int parameter. Launch as ch10__csr_spmv_device with src/main.cu's configuration:
// block_dim = 1024, grid_dim = ceil(rows / 1024.).
//
// ACCEPTED at compile time (one thread per row: each stores only y[row]; everything else is a
// load) and RUNS AS WRITTEN: elem runs between two loaded row pointers and v is indexed by a loaded
// column, so the bounds live in the data. The launch measures the contents of the read-only
// arrays the indices read (m_row_ptr, m_col_index: launch/contents.hpp) and bounds each load by
// them: every m_row_ptr value is in [0, nnz], so elem < nnz = m_data.size(); every column is in
// [0, cols). Before that mechanism every launch was refused E101 ("the index cannot be bounded"),
// and the kernel needed a guard and a clamp the original lacks. A matrix whose column or row
// pointer leaves its array is refused E101, naming the array and the element that holds the value.
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

using Blk = w::block<1024>;

}  // namespace

#define CSR_PARAMS Blk, w::in<double>, w::in<int>, w::in<int>, w::value<int>, w::in<double>, w::inout<double>

WARDEN_KERNEL(csr_k, w::kernel<CSR_PARAMS>(csr_spmv)
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

TEST_CASE("corpus2 pmpp csr_spmv: accepted, runs as written on three matrices, clean", "[corpus2][pmpp]") {
  STATIC_REQUIRE(code_of<CSR_PARAMS>(csr_spmv) == code::none);
  CHECK(w::obligations_of(csr_k).empty());
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
    CHECK(w::record(csr_k, grid, d_data, d_col, d_ptr, rows, d_v, d_y).clean());
    corpus::check_close(w::to_host(d_y), ref, 1e-6);
  }
}

TEST_CASE("corpus2 pmpp csr_spmv: a column or a row pointer outside its array is refused E101, naming the element", "[corpus2][pmpp]") {
  csr m = make(1500, 700);
  std::vector<double> v(700, 1.0), y(1500, 0.0);
  auto d_data = w::to_device(m.data);
  auto d_ptr = w::to_device(m.row_ptr);
  auto d_v = w::to_device(v);
  auto d_y = w::to_device(y);
  const auto grid = w::grid(2);
  m.col_idx[12] = 700;  // one past v's end
  auto d_col = w::to_device(m.col_idx);
  try {
    w::launch(csr_k, grid, d_data, d_col, d_ptr, 1500, d_v, d_y);
    FAIL("a column past v's end launched");
  } catch (const w::bounds_error& e) {
    CHECK_THAT(e.what(), Catch::Matchers::StartsWith("E101"));
    CHECK_THAT(e.what(), Catch::Matchers::Contains("may reach index 700, but v (parameter 4, in) has 700 elements"));
    CHECK_THAT(e.what(), Catch::Matchers::Contains("m_col_index holds 0 to 700 ("));
    CHECK_THAT(e.what(), Catch::Matchers::Contains("700 at element 12)"));
  }
  CHECK(w::to_host(d_y) == y);  // refused before the kernel ran
  m.col_idx[12] = 3;
  m.row_ptr.back() += 1;  // the last row runs one past m_data and m_col_index
  auto d_col2 = w::to_device(m.col_idx);
  auto d_ptr2 = w::to_device(m.row_ptr);
  try {
    w::launch(csr_k, grid, d_data, d_col2, d_ptr2, 1500, d_v, d_y);
    FAIL("a row pointer past m_data's end launched");
  } catch (const w::bounds_error& e) {
    CHECK_THAT(e.what(), Catch::Matchers::StartsWith("E101"));
    CHECK_THAT(e.what(), Catch::Matchers::Contains("m_row_ptr holds 0 to " + std::to_string(m.row_ptr.back())));
  }
}
