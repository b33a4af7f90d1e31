// Parboil's JDS sparse matrix-vector product (issue 56, item 3: "the JDS kernel runs with facts and
// without trusted"). Ported from the Parboil benchmark suite's spmv, the OpenCL kernel
// `spmv_jds_vec` as crawled in minhkhoi1026/cldrive,
// github-crawled-kernels-modified/eb54c6bf718e2e2b9e67058df4ffcbe2174199cd7691f943681f4703735a4f5e.cl:
//
//   int mat_row = get_global_id(0);
//   if (mat_row < dim) {
//     int bound = sh_zcnt_int[mat_row / warp_size];
//     float sum = 0.0f;
//     int col = 0;
//     while (col < bound) {
//       j = jds_ptr_int[col] + mat_row;
//       sm_index = d_index[j]; sm_value = d_data[j]; dat_value = x_vec[sm_index];
//       col += 1;
//       sum += dat_value * sm_value;
//     }
//     dst_vector[d_perm[mat_row]] = sum;
//   }
//
// The only change is the one fact: given(permutation(d_perm), ...). Without it the scatter through
// d_perm is W012 (a store at a loaded index); with it, the checker judges dst_vector at mat_row and
// the launch measures d_perm, refusing (E107) one that is no permutation. The while loop is a
// for_range over col, as it counts.
//
// One limit, recorded here: the bounds check bounds d_index[jds_ptr_int[col] + mat_row] by the
// greatest jds_ptr_int element plus the greatest mat_row; it cannot relate col < bound to the length
// of diagonal col. The arrays below are allocated to that reach (the greatest diagonal start plus
// dim), as a padded JDS layout is; an unpadded one is refused with E101 (a false positive).
#include <warden/warden.hpp>

#include <catch2/catch.hpp>
#include "../support/verdict_probe.hpp"

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

namespace w = warden;

namespace {

constexpr auto jds_body = [](auto k, auto dst_vector, auto d_data, auto d_index, auto d_perm, auto x_vec, auto dim,
                             auto jds_ptr_int, auto sh_zcnt_int, auto warp_size) {
  auto mat_row = k.global_id();
  return w::given(w::permutation(d_perm),
                  w::when(mat_row < dim, w::local(k, 0.f, [&](auto k, auto sum) {
                            return w::seq(w::for_range(k, 0, sh_zcnt_int[mat_row / warp_size],
                                                       [&](auto, auto col) {
                                                         auto j = jds_ptr_int[col] + mat_row;
                                                         return sum += x_vec[d_index[j]] * d_data[j];
                                                       }),
                                          dst_vector[d_perm[mat_row]] = sum);
                          })));
};
WARDEN_KERNEL(spmv_jds, w::kernel<w::block<32>, w::out<float>, w::in<float>, w::in<int>, w::in<int>, w::in<float>, w::value<int>,
                                  w::in<int>, w::in<int>, w::value<int>>(jds_body).named("spmv_jds", "dst_vector", "d_data", "d_index", "d_perm", "x_vec", "dim",
                                                   "jds_ptr_int", "sh_zcnt_int", "warp_size"));

// A matrix in JDS form, built as Parboil's converter lays it out: rows sorted by length (longest
// first, d_perm[sorted] = original row), diagonal c holding the c-th nonzero of every row that has
// one, each diagonal starting at jds_ptr[c] and padded with zeros to whole warps (every row of a
// warp reads up to the warp's longest row); sh_zcnt[w] = the longest row of warp w.
struct jds_matrix {
  std::vector<float> data;
  std::vector<int> index, perm, jds_ptr, sh_zcnt;
  std::size_t stored = 0;  // the elements a padded JDS layout holds; data and index reach further
  std::vector<std::vector<std::pair<int, float>>> rows;  // the matrix, by original row
};

jds_matrix make_jds(int n, int warp) {
  jds_matrix m;
  m.rows.resize(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r) {
    const int len = (r * 7 + 3) % 6;  // 0 .. 5 nonzeros
    for (int c = 0; c < len; ++c) m.rows[static_cast<std::size_t>(r)].push_back({(r * 13 + c * 5) % n, static_cast<float>(r + c + 1)});
  }
  m.perm.resize(static_cast<std::size_t>(n));
  std::iota(m.perm.begin(), m.perm.end(), 0);
  std::stable_sort(m.perm.begin(), m.perm.end(), [&](int a, int b) {
    return m.rows[static_cast<std::size_t>(a)].size() > m.rows[static_cast<std::size_t>(b)].size();
  });
  const std::size_t longest = m.rows[static_cast<std::size_t>(m.perm[0])].size();
  int start = 0;
  for (std::size_t c = 0; c < longest; ++c) {
    m.jds_ptr.push_back(start);
    int length = 0;
    while (length < n && m.rows[static_cast<std::size_t>(m.perm[static_cast<std::size_t>(length)])].size() > c) ++length;
    start += (length + warp - 1) / warp * warp;  // whole warps: a warp's shorter rows read zeros
  }
  m.stored = static_cast<std::size_t>(start);
  // Padded to the greatest diagonal start plus n (see the header).
  const std::size_t reach = static_cast<std::size_t>(m.jds_ptr.back() + n);
  m.data.assign(reach, 0.f);
  m.index.assign(reach, 0);
  for (std::size_t c = 0; c < longest; ++c)
    for (int s = 0; s < n; ++s) {
      const auto& row = m.rows[static_cast<std::size_t>(m.perm[static_cast<std::size_t>(s)])];
      if (row.size() <= c) break;
      m.index[static_cast<std::size_t>(m.jds_ptr[c] + s)] = row[c].first;
      m.data[static_cast<std::size_t>(m.jds_ptr[c] + s)] = row[c].second;
    }
  for (int first = 0; first < n; first += warp)
    m.sh_zcnt.push_back(static_cast<int>(m.rows[static_cast<std::size_t>(m.perm[static_cast<std::size_t>(first)])].size()));
  return m;
}

}  // namespace

TEST_CASE("Parboil's JDS SpMV runs as written with permutation(d_perm), without trusted", "[launch][contents][facts][corpus]") {
  using code = w::diagnostic::code;
  STATIC_REQUIRE(w::testing::code_of<w::block<32>, w::out<float>, w::in<float>, w::in<int>, w::in<int>, w::in<float>, w::value<int>,
                                     w::in<int>, w::in<int>, w::value<int>>(jds_body) == code::none);
  // As Parboil wrote it, without the fact: the scatter through d_perm is a store at a loaded index.
  STATIC_REQUIRE(w::testing::code_of<w::block<32>, w::out<float>, w::in<float>, w::in<int>, w::in<int>, w::in<float>, w::value<int>,
                                     w::in<int>, w::in<int>, w::value<int>>([](auto k, auto dst_vector, auto d_data, auto d_index,
                                                                                auto d_perm, auto x_vec, auto dim, auto jds_ptr_int,
                                                                                auto sh_zcnt_int, auto warp_size) {
                   auto mat_row = k.global_id();
                   return w::when(mat_row < dim, w::local(k, 0.f, [&](auto k, auto sum) {
                                    return w::seq(w::for_range(k, 0, sh_zcnt_int[mat_row / warp_size],
                                                               [&](auto, auto col) {
                                                                 auto j = jds_ptr_int[col] + mat_row;
                                                                 return sum += x_vec[d_index[j]] * d_data[j];
                                                               }),
                                                  dst_vector[d_perm[mat_row]] = sum);
                                  }));
                 }) == code::W012);

  const int n = 200, warp = 32;
  const jds_matrix m = make_jds(n, warp);
  std::vector<float> xs(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) xs[static_cast<std::size_t>(i)] = static_cast<float>(i % 7) - 3.f;
  std::vector<float> expected(static_cast<std::size_t>(n), 0.f);
  for (int r = 0; r < n; ++r)
    for (const auto& [c, v] : m.rows[static_cast<std::size_t>(r)]) expected[static_cast<std::size_t>(r)] += v * xs[static_cast<std::size_t>(c)];

  auto data = w::to_device(m.data);
  auto index = w::to_device(m.index);
  auto perm = w::to_device(m.perm);
  auto x = w::to_device(xs);
  auto ptr = w::to_device(m.jds_ptr);
  auto zcnt = w::to_device(m.sh_zcnt);
  auto dst = w::to_device(std::vector<float>(static_cast<std::size_t>(n), 0.f));
  const w::recording r = w::record(spmv_jds, w::grid_for(n), dst, data, index, perm, x, n, ptr, zcnt, warp);
  CHECK(r.clean());
  CHECK(w::to_host(dst) == expected);

  // The known false positive: arrays that end where the layout's last diagonal does are refused,
  // though no thread reads past it (col < bound bounds j by the diagonal's length).
  REQUIRE(m.stored < m.data.size());
  auto short_data = w::to_device(std::vector<float>(m.data.begin(), m.data.begin() + static_cast<long>(m.stored)));
  auto short_index = w::to_device(std::vector<int>(m.index.begin(), m.index.begin() + static_cast<long>(m.stored)));
  CHECK_THROWS_AS(w::launch(w::on_cpu, spmv_jds, w::grid_for(n), dst, short_data, short_index, perm, x, n, ptr, zcnt, warp),
                  w::bounds_error);

  // A d_perm that is no permutation (two sorted rows sent to one row): refused, dst as it was.
  std::vector<int> broken = m.perm;
  broken[5] = broken[9];
  w::copy(perm, w::to_device(broken));
  try {
    w::launch(w::on_cpu, spmv_jds, w::grid_for(n), dst, data, index, perm, x, n, ptr, zcnt, warp);
    FAIL("a JDS product through a d_perm with a repeat launched");
  } catch (const w::fact_error& e) {
    CHECK_THAT(e.what(), Catch::Matchers::Contains("d_perm[9] repeats d_perm[5]"));
  }
  CHECK(w::to_host(dst) == expected);
}
