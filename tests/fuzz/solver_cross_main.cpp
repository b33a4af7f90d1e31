// The launch's solver against brute force (issue 54, item 3): on random kernels from the soundness
// fuzzer's generator (random_program.hpp) and small launches that can be listed, every question
// the launch now decides as an integer set (check/launch/global_pairs.hpp) is asked of both the
// solver and the listing it replaced (tests/support/pair_listing.hpp), and the answers must agree:
//   * pairs: do two different threads reach one element through global accesses i and j (every
//     pair of accesses to one buffer, of any kinds, i == j included);
//   * bounds: does some run of a global access reach outside [0, size) (size 64, and 20);
//   * tiles (check/launch/shared_tiles.hpp against tests/support/tile_listing_oracle.hpp): every
//     pair of tile accesses at every relation of their loops' trips the launch asks about (W020,
//     W021, W040), and every load against the stores that can precede it (W022);
//   * the launch's whole tile judgement: a kernel the checker accepts, whose tiles every index,
//     guard and bound of which the solver writes, and which this launch lets run, breaks no tile
//     rule by the listing (this is what finds the launch that judged W020 and forgot W022; the
//     generator's halo_tile is the box filter of issue 54 with a forgotten halo);
// wherever the listing decides (it gives up on data and locals) and the launch passed E104 (the
// solver counts in the integers, which E104 guarantees the kernel does). Every meeting the solver
// returns is checked as a witness: the two threads differ, each trip lies in its loop, no guard of
// either access is false there, and both indices evaluate to the element.
//
//   solver_cross [--programs N] [--seed S] [--min-cases C]
// prints counts; exits 1 on a disagreement, a false witness, or fewer than C cases compared.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include <warden/check/launch/global_pairs.hpp>
#include <warden/check/launch/launch_checks.hpp>
#include <warden/check/launch/obligations.hpp>
#include <warden/check/launch/shared_tiles.hpp>
#include <warden/check/rules.hpp>

#include "../support/pair_listing.hpp"
#include "../support/tile_listing_oracle.hpp"
#include "random_program.hpp"

namespace w = warden;
namespace li = w::check::launch_impl;

namespace {

struct launch_shape {
  int grid;
  long long n;
};
constexpr launch_shape shapes[] = {{1, 3}, {2, 3}, {3, 40}, {1, 0}, {2, -1}, {4, 9}, {2, 70000}, {3, 17}};

w::check::launch_facts facts_of(const w::fuzz::program& p, const launch_shape& l, long long size) {
  w::check::launch_facts facts;
  facts.block = {p.block, 1, 1};
  facts.grid = {l.grid, 1, 1};
  facts.values = {std::nullopt, std::nullopt, w::fuzz::received(p.n_type, l.n), std::nullopt};
  facts.beyond.assign(4, 0);
  facts.sizes = {size, size, 0, 0};
  facts.contents.resize(4);
  return facts;
}

// The solver's meeting, checked by evaluating the kernel's expressions at its point.
bool witness_holds(const w::dsl::kernel_ir& ir, const w::check::launch_facts& facts, int first, int second, const li::pair_verdict& v) {
  if (v.thread1 == v.thread2) return false;
  const auto at = [&](long long linear, const std::vector<li::loop_trip>& trips) {
    li::thread_point p;
    const long long per_block = facts.block.x;
    p.thread[0] = linear % per_block;
    p.block[0] = linear / per_block;
    p.loop_value.assign(ir.loops.size(), 0);
    p.loop_set.assign(ir.loops.size(), 0);
    for (const li::loop_trip& t : trips) {
      p.loop_value[static_cast<std::size_t>(t.loop)] = t.value;
      p.loop_set[static_cast<std::size_t>(t.loop)] = 1;
    }
    return p;
  };
  const auto runs_there = [&](const w::dsl::ir_access& a, const li::thread_point& p) {
    for (int l = a.loop_begin; l < a.loop_end; ++l) {
      const w::dsl::ir_loop& loop = ir.loops[static_cast<std::size_t>(ir.loop_pool[static_cast<std::size_t>(l)])];
      const auto lo = li::exact_value(ir, loop.lo, facts, &p), hi = li::exact_value(ir, loop.hi, facts, &p),
                 step = li::exact_value(ir, loop.step, facts, &p);
      const long long v = p.loop_value[static_cast<std::size_t>(ir.loop_pool[static_cast<std::size_t>(l)])];
      if (!lo || !hi || !step || v < *lo || v >= *hi || (v - *lo) % *step != 0) return false;
    }
    for (int g = a.guard_begin; g < a.guard_end; ++g) {
      const w::dsl::ir_guard& guard = ir.guard_pool[static_cast<std::size_t>(g)];
      const auto c = li::exact_value(ir, guard.condition, facts, &p);
      if (c && (*c != 0) == guard.negated) return false;
    }
    return true;
  };
  const w::dsl::ir_access& a = ir.accesses[static_cast<std::size_t>(first)];
  const w::dsl::ir_access& c = ir.accesses[static_cast<std::size_t>(second)];
  const li::thread_point pa = at(v.thread1, v.trips1), pc = at(v.thread2, v.trips2);
  if (!runs_there(a, pa) || !runs_there(c, pc)) return false;
  const auto ea = li::exact_value(ir, a.index, facts, &pa), ec = li::exact_value(ir, c.index, facts, &pc);
  if (!ea || !ec || *ea != v.element || *ec != v.element) return false;
  if (pa.block[0] != pc.block[0]) return true;
  // One block: the two runs' trips must be at a relation no barrier orders.
  const w::check::context ca = w::check::context_of(a), cc = w::check::context_of(c);
  const int common = w::check::common_loops(ir, ca, cc);
  const auto trip = [&](int depth, const li::thread_point& p) {
    const int l = ir.loop_pool[static_cast<std::size_t>(a.loop_begin + depth)];
    const w::dsl::ir_loop& loop = ir.loops[static_cast<std::size_t>(l)];
    return (p.loop_value[static_cast<std::size_t>(l)] - *li::exact_value(ir, loop.lo, facts, &p)) / *li::exact_value(ir, loop.step, facts, &p);
  };
  for (int d = 0; d < common; ++d)
    if (trip(d, pa) != trip(d, pc)) return !w::check::ordered_different_iterations(ir, ca, cc, d);
  return !w::check::ordered_same_iteration(ir, ca, cc);
}

void print_access(const w::dsl::kernel_ir& ir, const w::dsl::ir_access& a) {
  std::printf("  p%d[%s], %d loop(s)\n", a.target, w::dsl::render(ir, a.index, {}).c_str(), a.loop_end - a.loop_begin);
  for (int g = a.guard_begin; g < a.guard_end; ++g)
    std::printf("      when %s%s\n", ir.guard_pool[static_cast<std::size_t>(g)].negated ? "not " : "",
                w::dsl::render(ir, ir.guard_pool[static_cast<std::size_t>(g)].condition, {}).c_str());
  for (int l = a.loop_begin; l < a.loop_end; ++l) {
    const auto& loop = ir.loops[static_cast<std::size_t>(ir.loop_pool[static_cast<std::size_t>(l)])];
    std::printf("      loop %s .. %s step %s\n", w::dsl::render(ir, loop.lo, {}).c_str(), w::dsl::render(ir, loop.hi, {}).c_str(),
                w::dsl::render(ir, loop.step, {}).c_str());
  }
}

// Whether the solver writes every index, guard and loop bound of every tile access exactly for
// this launch (then its answers and the listing's must be the same in both directions).
bool tiles_exact(const w::dsl::kernel_ir& ir, const w::check::launch_facts& facts) {
  for (const w::dsl::ir_access& a : ir.accesses) {
    if (a.memory != w::dsl::memory_kind::shared) continue;
    li::presburger_question q(ir, facts);
    li::presburger_instance in = q.thread("a");
    if (!q.enter_loops(a, in, "a")) return false;
    q.enter_guards(a.guard_begin, a.guard_end, in);
    if (q.over_approximated() || !w::check::launch_impl::tile_index_written(ir, facts, a)) return false;
  }
  return true;
}

const char* answer_name(li::pair_answer a) {
  return a == li::pair_answer::apart ? "apart" : a == li::pair_answer::meet ? "meet" : "undecided";
}


struct TileCounts {
  long cases = 0, meet = 0, launches = 0, refused = 0, disagreements = 0, false_witnesses = 0;
};

// A tile witness checked by evaluating the kernel at it: both threads run their access at their
// trips (the guards that can be evaluated hold) and reach the element.
bool tile_witness_holds(const w::dsl::kernel_ir& ir, const w::check::launch_facts& facts, int first, int second,
                        const li::tile_finding& f) {
  const auto reaches = [&](int access, long long linear, const std::vector<li::loop_trip>& trips) {
    const w::dsl::ir_access& a = ir.accesses[static_cast<std::size_t>(access)];
    li::thread_point at;
    at.thread[0] = linear % facts.block.x;
    at.block[0] = linear / facts.block.x;
    at.loop_value.assign(ir.loops.size(), 0);
    at.loop_set.assign(ir.loops.size(), 0);
    for (const li::loop_trip& t : trips) {
      at.loop_value[static_cast<std::size_t>(t.loop)] = t.value;
      at.loop_set[static_cast<std::size_t>(t.loop)] = 1;
    }
    for (int p = a.loop_begin; p < a.loop_end; ++p) {  // each trip inside its loop
      const w::dsl::ir_loop& loop = ir.loops[static_cast<std::size_t>(ir.loop_pool[static_cast<std::size_t>(p)])];
      const auto lo = li::exact_value(ir, loop.lo, facts, &at), hi = li::exact_value(ir, loop.hi, facts, &at),
                 step = li::exact_value(ir, loop.step, facts, &at);
      const long long v = at.loop_value[static_cast<std::size_t>(ir.loop_pool[static_cast<std::size_t>(p)])];
      if (!lo || !hi || !step || v < *lo || v >= *hi || (v - *lo) % *step != 0) return false;
    }
    for (int g = a.guard_begin; g < a.guard_end; ++g) {
      const w::dsl::ir_guard& guard = ir.guard_pool[static_cast<std::size_t>(g)];
      const auto v = li::exact_value(ir, guard.condition, facts, &at);
      if (v && (*v != 0) == guard.negated) return false;
    }
    if (a.trusted) return true;
    const w::dsl::ir_tile* tile = w::check::tile_of(ir, a.target);
    const auto row = li::exact_value(ir, a.index, facts, &at);
    const auto column = a.column >= 0 ? li::exact_value(ir, a.column, facts, &at) : std::optional<long long>(0);
    if (!row || !column) return false;
    const long long pitch = a.column >= 0 ? tile->cols + tile->pad : 1;
    return *row * pitch + *column == f.element;
  };
  if (f.thread1 == f.thread2 || f.thread1 / facts.block.x != (second >= 0 ? f.thread2 / facts.block.x : f.thread1 / facts.block.x)) return false;
  return reaches(first, f.thread1, f.trips1) && (second < 0 || reaches(second, f.thread2, f.trips2));
}

// The tile questions of one launch, solver against listing, and the launch's whole judgement.
TileCounts cross_tiles(const w::dsl::kernel_ir& ir, const w::fuzz::program& p, const w::check::finding& verdict,
                       const w::check::launch_facts& facts, long k, unsigned seed, const launch_shape& l) {
  TileCounts out;
  const w::check::launch_numbers numbers = li::numbers_of(facts);
  w::check::block_shape shape{facts.block.x, facts.block.y, facts.block.z};
  shape.grid_dims = w::check::grid_dims_of(ir);
  shape.numbers = &numbers;
  const int n = static_cast<int>(ir.accesses.size());
  auto disagree = [&](const char* what, int i, int j, int relation, li::pair_answer listed, li::pair_answer solved) {
    ++out.disagreements;
    std::printf("DISAGREE (%s): program %ld (seed %u), grid %d, n %lld, accesses %d and %d, relation %d: listing %s, solver %s\n", what, k,
                seed, l.grid, l.n, i, j, relation, answer_name(listed), answer_name(solved));
    print_access(ir, ir.accesses[static_cast<std::size_t>(i)]);
    if (j >= 0 && j != i) print_access(ir, ir.accesses[static_cast<std::size_t>(j)]);
  };
  // Pairs (every relation of their common loops, the ordered ones too: more questions to compare).
  for (int i = 0; i < n; ++i)
    for (int j = i; j < n; ++j) {
      if (!w::check::tile_pair_asked(ir, ir.accesses[static_cast<std::size_t>(i)], ir.accesses[static_cast<std::size_t>(j)])) continue;
      const int common = w::check::common_loops(ir, w::check::context_of(ir.accesses[static_cast<std::size_t>(i)]),
                                                w::check::context_of(ir.accesses[static_cast<std::size_t>(j)]));
      for (int relation = -1; relation < common; ++relation) {
        const li::pair_answer listed = w::testing::listing::tile_pair_meeting(ir, facts, i, j, common, relation);
        li::tile_finding f;
        const li::pair_answer solved = li::tile_pair_meeting(ir, facts, i, j, common, relation, f);
        if (listed == li::pair_answer::undecided || solved == li::pair_answer::undecided) continue;
        ++out.cases;
        out.meet += solved == li::pair_answer::meet;
        if (listed != solved && !(solved == li::pair_answer::meet && f.possible)) disagree("tile pair", i, j, relation, listed, solved);
        else if (solved == li::pair_answer::meet && !f.possible && !tile_witness_holds(ir, facts, i, j, f)) {
          ++out.false_witnesses;
          std::printf("FALSE WITNESS (tile pair): program %ld (seed %u), grid %d, n %lld, accesses %d and %d\n", k, seed, l.grid, l.n, i, j);
        }
      }
    }
  // Loads against the stores that can precede them, as the launch asks (placed_stores_before).
  for (int i = 0; i < n; ++i) {
    const w::dsl::ir_access& load = ir.accesses[static_cast<std::size_t>(i)];
    if (!w::check::tile_load_asked(ir, load) || !li::tile_index_written(ir, facts, load)) continue;
    const std::optional<std::vector<int>> stores = li::placed_stores_before(ir, facts, load);
    if (!stores) continue;
    const li::pair_answer listed = w::testing::listing::load_not_stored(ir, facts, i, *stores);
    li::tile_finding f;
    const li::pair_answer solved = li::load_not_stored(ir, facts, i, *stores, f);
    if (listed == li::pair_answer::undecided || solved == li::pair_answer::undecided) continue;
    ++out.cases;
    out.meet += solved == li::pair_answer::meet;
    const bool excused = (solved == li::pair_answer::meet && f.possible) || (solved == li::pair_answer::apart && f.stores_widened);
    if (listed != solved && !excused) disagree("W022", i, -1, -1, listed, solved);
    else if (solved == li::pair_answer::meet && !f.possible && !tile_witness_holds(ir, facts, i, -1, f)) {
      ++out.false_witnesses;
      std::printf("FALSE WITNESS (W022): program %ld (seed %u), grid %d, n %lld, load %d\n", k, seed, l.grid, l.n, i);
    }
  }
  // The launch's whole judgement, where the checker accepted the kernel and the solver is exact.
  bool handed = false;
  for (const w::check::obligation& o : verdict.obligations) handed = handed || o.kind == w::check::obligation_kind::shared_at_launch;
  if (std::getenv("SOLVER_CROSS_WHOLE"))
    std::printf("program %ld: verdict %s, handed %d, exact %d\n", k, w::diagnostic::to_string(verdict.code), handed, tiles_exact(ir, facts));
  if (verdict.code != w::diagnostic::code::none || !tiles_exact(ir, facts)) return out;
  if (!handed) return out;
  const std::vector<std::string> names = {"inout", "in", "n", "p"}, kinds = {"buffer", "buffer", "value", "value"};
  if (!w::check::first_overrun(ir, facts, names, kinds).empty()) {
    if (std::getenv("SOLVER_CROSS_WHOLE")) std::printf("  overrun: %s\n", w::check::first_overrun(ir, facts, names, kinds).c_str());
    return out;  // E101 first
  }
  const bool refused = !w::check::first_unmet_obligation(ir, facts, names, verdict.obligations).empty();
  const li::pair_answer broken = w::testing::listing::any_tile_rule_broken(ir, facts, shape);
  if (std::getenv("SOLVER_CROSS_WHOLE")) std::printf("  refused %d, broken %s\n", refused, answer_name(broken));
  if (broken == li::pair_answer::undecided) return out;
  ++out.launches;
  out.refused += refused;
  if (!refused && broken == li::pair_answer::meet) {
    ++out.disagreements;
    std::printf("LAUNCH LETS A TILE RULE FAIL: program %ld (seed %u, block %d), grid %d, n %lld: the listing breaks a tile rule\n", k, seed,
                p.block, l.grid, l.n);
    for (int i = 0; i < n; ++i)
      if (w::check::is_shared(ir.accesses[static_cast<std::size_t>(i)])) print_access(ir, ir.accesses[static_cast<std::size_t>(i)]);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  long programs = 3000, min_cases = 0;
  unsigned seed = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--programs") == 0) programs = std::atol(argv[i + 1]);
    else if (std::strcmp(argv[i], "--seed") == 0) seed = static_cast<unsigned>(std::atol(argv[i + 1]));
    else if (std::strcmp(argv[i], "--min-cases") == 0) min_cases = std::atol(argv[i + 1]);
  }
  const auto start = std::chrono::steady_clock::now();
  long pair_cases = 0, pair_meet = 0, bound_cases = 0, bound_outside = 0, disagreements = 0, false_witnesses = 0;
  long solver_only = 0, listing_only = 0;  // decided by one side alone (not compared)
  long tile_cases = 0, tile_meet = 0, launch_cases = 0, launch_refused = 0;
  const std::vector<std::string> names = {"inout", "in", "n", "p"};
  w::fuzz::generator gen(seed);
  for (long k = 0; k < programs; ++k) {
    // Every fourth program around a box filter's halo tile (random_program.hpp, halo_tile).
    const w::fuzz::program p = k % 4 == 3 ? gen.make_halo() : gen.make();
    const w::dsl::kernel_ir ir = w::fuzz::lowering(p).run();
    std::vector<int> globals;
    for (int i = 0; i < static_cast<int>(ir.accesses.size()); ++i)
      if (ir.accesses[static_cast<std::size_t>(i)].memory == w::dsl::memory_kind::global) globals.push_back(i);
    const w::check::finding verdict = w::check::analyse(ir, {p.block, 1, 1});
    for (const launch_shape& l : shapes) {
      for (const long long size : {64LL, 20LL}) {
        const w::check::launch_facts facts = facts_of(p, l, size);
        if (!w::check::first_integer_wrap(ir, facts, names).empty()) continue;  // E104 refuses it first
        if (size == 64)
          for (std::size_t x = 0; x < globals.size(); ++x)
            for (std::size_t y = x; y < globals.size(); ++y) {
              const int i = globals[x], j = globals[y];
              if (ir.accesses[static_cast<std::size_t>(i)].target != ir.accesses[static_cast<std::size_t>(j)].target) continue;
              const w::testing::listing::pair_verdict listed = w::testing::listing::global_pair_meeting(ir, facts, i, j);
              const li::pair_verdict solved = li::global_pair_meeting(ir, facts, i, j);
              if (listed.answer == li::pair_answer::undecided || solved.answer == li::pair_answer::undecided) {
                solver_only += listed.answer == li::pair_answer::undecided && solved.answer != li::pair_answer::undecided;
                listing_only += solved.answer == li::pair_answer::undecided && listed.answer != li::pair_answer::undecided;
                if (std::getenv("SOLVER_CROSS_WHY") && solved.answer == li::pair_answer::undecided && listed.answer != li::pair_answer::undecided) {
                  std::printf("solver undecided (%s):\n", solved.why.c_str());
                  print_access(ir, ir.accesses[static_cast<std::size_t>(i)]);
                  print_access(ir, ir.accesses[static_cast<std::size_t>(j)]);
                }
                continue;
              }
              ++pair_cases;
              pair_meet += solved.answer == li::pair_answer::meet;
              if (listed.answer != solved.answer) {
                ++disagreements;
                std::printf("DISAGREE: program %ld (seed %u), grid %d, n %lld, accesses %d and %d: listing %s, solver %s\n", k, seed,
                            l.grid, l.n, i, j, answer_name(listed.answer), answer_name(solved.answer));
              } else if (solved.answer == li::pair_answer::meet && !solved.possible && !witness_holds(ir, facts, i, j, solved)) {
                ++false_witnesses;
                std::printf("FALSE WITNESS: program %ld (seed %u), grid %d, n %lld, accesses %d and %d: threads %lld and %lld, element %lld\n",
                            k, seed, l.grid, l.n, i, j, solved.thread1, solved.thread2, solved.element);
              }
            }
        if (size == 64) {
          const TileCounts t = cross_tiles(ir, p, verdict, facts, k, seed, l);
          tile_cases += t.cases;
          tile_meet += t.meet;
          launch_cases += t.launches;
          launch_refused += t.refused;
          disagreements += t.disagreements;
          false_witnesses += t.false_witnesses;
        }
        for (const int i : globals) {
          const w::dsl::ir_access& a = ir.accesses[static_cast<std::size_t>(i)];
          bool outside = false;
          const bool listed = w::testing::listing::list_global_access(ir, facts, a, w::testing::listing::max_listed_instances,
                                                                        [&](long long, long long e) {
                                                                          outside = e < 0 || e >= size;
                                                                          return !outside;
                                                                        });
          const li::outside_verdict solved = li::element_outside(ir, facts, a, size);
          if (!listed || solved.answer == li::pair_answer::undecided) {
            solver_only += !listed && solved.answer != li::pair_answer::undecided;
            listing_only += listed && solved.answer == li::pair_answer::undecided;
            continue;
          }
          ++bound_cases;
          bound_outside += outside;
          const bool solver_outside = solved.answer == li::pair_answer::meet;
          if (outside != solver_outside || (solver_outside && solved.element >= 0 && solved.element < size)) {
            ++disagreements;
            std::printf("DISAGREE (bounds): program %ld (seed %u), grid %d, n %lld, size %lld, access %d: listing %s, solver %s (element %lld)\n", k,
                        seed, l.grid, l.n, size, i, outside ? "outside" : "inside", solver_outside ? "outside" : "inside", solved.element);
            print_access(ir, a);
          }
        }
      }
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("programs %ld  pair questions compared %ld (meeting %ld)  bound questions compared %ld (outside %ld)  in %.1f s\n", programs,
              pair_cases, pair_meet, bound_cases, bound_outside, seconds);
  std::printf("tile questions compared %ld (meeting or uncovered %ld)  accepted launches judged whole %ld (refused %ld)\n", tile_cases,
              tile_meet, launch_cases, launch_refused);
  std::printf("disagreements %ld  false witnesses %ld  decided by the solver alone %ld  by the listing alone %ld\n", disagreements,
              false_witnesses, solver_only, listing_only);
  if (pair_cases + bound_cases + tile_cases < min_cases) {
    std::printf("FEWER CASES than the %ld asked for\n", min_cases);
    return 1;
  }
  return disagreements == 0 && false_witnesses == 0 ? 0 : 1;
}
