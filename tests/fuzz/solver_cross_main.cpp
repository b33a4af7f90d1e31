// The launch's solver against brute force (issue 54, item 3): on random kernels from the soundness
// fuzzer's generator (random_program.hpp) and small launches that can be listed, every question
// the launch now decides as an integer set (check/launch/global_pairs.hpp) is asked of both the
// solver and the listing it replaced (tests/support/pair_listing.hpp), and the answers must agree:
//   * pairs: do two different threads reach one element through global accesses i and j (every
//     pair of accesses to one buffer, of any kinds, i == j included);
//   * bounds: does some run of a global access reach outside [0, size) (size 64, and 20);
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

#include "../support/pair_listing.hpp"
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
  return ea && ec && *ea == v.element && *ec == v.element;
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

const char* answer_name(li::pair_answer a) {
  return a == li::pair_answer::apart ? "apart" : a == li::pair_answer::meet ? "meet" : "undecided";
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
  const std::vector<std::string> names = {"inout", "in", "n", "p"};
  w::fuzz::generator gen(seed);
  for (long k = 0; k < programs; ++k) {
    const w::fuzz::program p = gen.make();
    const w::dsl::kernel_ir ir = w::fuzz::lowering(p).run();
    std::vector<int> globals;
    for (int i = 0; i < static_cast<int>(ir.accesses.size()); ++i)
      if (ir.accesses[static_cast<std::size_t>(i)].memory == w::dsl::memory_kind::global) globals.push_back(i);
    if (globals.empty()) continue;
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
  std::printf("disagreements %ld  false witnesses %ld  decided by the solver alone %ld  by the listing alone %ld\n", disagreements,
              false_witnesses, solver_only, listing_only);
  if (pair_cases + bound_cases < min_cases) {
    std::printf("FEWER CASES than the %ld asked for\n", min_cases);
    return 1;
  }
  return disagreements == 0 && false_witnesses == 0 ? 0 : 1;
}
