// The bridge between the fuzzer's value-level programs and real kernels: each program that
// warden_fuzz_emit wrote as warden C++ (bridge_programs.hpp, generated at build time) is
//   * checked by the compiler: its verdict is a constant expression computed from the kernel
//     language's own description of the body, and an accepted program is also defined with
//     warden::kernel, whose static_assert runs the checker;
//   * run on the cpu backend's recording mode over the fuzzer's grids and sizes;
// and both must agree with the value-level path on the same program: analyse() over the
// fuzzer's lowering, and the fuzzer's interpreter (same conflicts, same bounds errors, same
// results where nothing conflicts).
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include <warden/warden.hpp>

#include "bridge_programs.hpp"
#include "random_program.hpp"

namespace w = warden;

namespace {

using params = std::tuple<w::inout<long long>, w::in<long long>, w::value<long long>>;

template <class Body>
struct trusting {
  constexpr auto operator()(auto... handles) const { return w::trusted(Body{}(handles...)); }
};

std::vector<w::conflict_kind> kinds(const w::recording& r) {
  std::vector<w::conflict_kind> out;
  for (const auto& c : r.conflicts()) out.push_back(c.kind);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

int accepted = 0, failures = 0, compared_runs = 0, compared_results = 0, bounds_errors = 0, refused_statically = 0;

void fail(int k, const std::string& what) {
  ++failures;
  std::printf("MISMATCH: program %d: %s\n", k, what.c_str());
}

template <int K, int B, class Body>
void check_program(const std::vector<w::fuzz::program>& generated) {
  using block = w::block<B>;
  // The compiler's verdict, from the kernel language's description of the body.
  constexpr w::diagnostic::code compiled =
      w::check::verdict_of(w::dsl::build_kernel<block, w::inout<long long>, w::in<long long>, w::value<long long>>(Body{}))
          .finding.code;
  const w::fuzz::program& p = generated[static_cast<std::size_t>(K)];
  if (p.block != B) fail(K, "block size differs from the generator's");
  const w::dsl::kernel_ir ir = w::fuzz::lowering(p).run();
  const w::diagnostic::code valued = w::check::analyse(ir, {p.block, 1, 1}).code;
  accepted += compiled == w::diagnostic::code::none ? 1 : 0;
  if (compiled != valued)
    fail(K, std::string("compiled verdict ") + w::diagnostic::to_string(compiled) + ", value-level verdict " + w::diagnostic::to_string(valued));

  // Accepted programs run as checked kernels; the others with the checker told to trust them.
  auto run = [&](int grid, long long n, w::device_buffer<long long>& inout, w::device_buffer<long long>& in) {
    if constexpr (compiled == w::diagnostic::code::none) {
      static constexpr auto kernel = w::kernel<block, w::inout<long long>, w::in<long long>, w::value<long long>>(Body{});
      return w::record(kernel, w::grid(grid), inout, in, n);
    } else {
      static constexpr auto kernel = w::kernel<block, w::inout<long long>, w::in<long long>, w::value<long long>>(trusting<Body>{});
      return w::record(kernel, w::grid(grid), inout, in, n);
    }
  };
  const int max_grid = w::check::grid_dims_of(ir) == 0 ? 1 : 3;
  for (int grid = 1; grid <= max_grid; ++grid)
    for (long long n : {3LL, 40LL}) {
      w::fuzz::interpreter reference(p, grid, static_cast<int>(n), bridge::seed + static_cast<unsigned>(K));
      auto inout = w::to_device(reference.inout());
      auto in = w::to_device(reference.in());
      const auto expected = reference.run();
      const std::string at = "grid " + std::to_string(grid) + ", n " + std::to_string(n);
      if (expected.out_of_bounds) {  // launch must refuse it (E101) before running anything
        bool threw = false;
        try {
          run(grid, n, inout, in);
        } catch (const w::bounds_error&) {
          threw = true;
        }
        if (!threw) fail(K, at + ": the interpreter overran a buffer, the cpu backend raised no E101");
        ++bounds_errors;
        continue;
      }
      w::recording got;
      try {
        got = run(grid, n, inout, in);
      } catch (const w::bounds_error&) {
        // Launch bounds every index over all threads before running (`in[t] % 16` may be
        // negative for some input), where the interpreter saw only this input: conservative,
        // not a disagreement.
        ++refused_statically;
        continue;
      } catch (const w::error& e) {
        fail(K, at + ": the cpu backend threw " + e.what());
        continue;
      }
      ++compared_runs;
      if (kinds(got) != kinds(expected.record))
        fail(K, at + ": recorded conflicts differ: cpu backend [" + got.report(3) + "], interpreter [" + expected.record.report(3) + "]");
      if (expected.record.conflicts().empty()) {
        ++compared_results;
        if (w::to_host(inout) != reference.inout()) fail(K, at + ": the inout buffer's final contents differ");
      }
    }
}

}  // namespace

int main() {
  // The generator's programs in sequence, as warden_fuzz_emit saw them.
  std::vector<w::fuzz::program> generated;
  w::fuzz::generator gen(bridge::seed);
  int programs = 0;
#define WARDEN_BRIDGE_COUNT(K, B, BODY) programs = std::max(programs, K + 1);
  WARDEN_BRIDGE_PROGRAMS(WARDEN_BRIDGE_COUNT)
  for (int k = 0; k < programs; ++k) generated.push_back(gen.make());
  int checked = 0;
#define WARDEN_BRIDGE_CHECK(K, B, BODY) \
  check_program<K, B, bridge::BODY>(generated); \
  ++checked;
  WARDEN_BRIDGE_PROGRAMS(WARDEN_BRIDGE_CHECK)
  std::printf(
      "bridge: %d programs (%d accepted), %d runs compared, %d results compared, %d overruns refused by launch (E101) as the "
      "interpreter overran, %d runs refused by launch's static bounds where this input stayed in bounds, %d mismatches\n",
      checked, accepted, compared_runs, compared_results, bounds_errors, refused_statically, failures);
  // Enough programs, and enough runs actually compared, for the comparison to mean something.
  return failures == 0 && checked >= 40 && accepted >= 16 && compared_runs >= 50 ? 0 : 1;
}
