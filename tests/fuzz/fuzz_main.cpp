// The differential fuzzer: random programs, the static checker's verdict (the very constexpr
// functions a kernel's static_assert calls), and the recording mode's observations over several
// grids. A program the checker accepts must never record a race or a divergent barrier.
//
//   fuzz [--programs N] [--seed S]      prints counts; exits 1 on an accepted-but-racy program
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <tuple>

#include <warden/check/launch/interval_evaluator.hpp>
#include <warden/check/launch/launch_checks.hpp>
#include <warden/check/launch/written_ranges.hpp>
#include <warden/check/rules.hpp>

#include "random_program.hpp"

namespace w = warden;

namespace {

void print_program(const w::dsl::kernel_ir& ir) {
  for (std::size_t i = 0; i < ir.accesses.size(); ++i) {
    const auto& a = ir.accesses[i];
    const char* kinds[] = {"load", "store", "atomic"};
    std::printf("  #%zu %s %s%d[%s] phase %d, %d guard(s), %d loop(s)\n", i, kinds[static_cast<int>(a.kind)],
                a.memory == w::dsl::memory_kind::global ? "p" : "tile", a.target, w::dsl::render(ir, a.index, {}).c_str(),
                a.phase, a.guard_end - a.guard_begin, a.loop_end - a.loop_begin);
    for (int g = a.guard_begin; g < a.guard_end; ++g)
      std::printf("      when %s%s\n", ir.guard_pool[static_cast<std::size_t>(g)].negated ? "not " : "",
                  w::dsl::render(ir, ir.guard_pool[static_cast<std::size_t>(g)].condition, {}).c_str());
  }
  std::printf("  %zu sync(s)\n", ir.syncs.size());
}

// The launches each program is run with: ordinary ones, and extreme ones (n of 0 and -1, which
// value<unsigned> receives as 4294967295; 70000, which short receives as 4464; 3000000000, which
// int receives as negative; a float p below 0; a wider grid).
struct launch_shape {
  int grid;
  long long n;
  float p;
};
constexpr launch_shape shapes[] = {{1, 3, 2.5f}, {2, 3, 2.5f},  {3, 3, 2.5f},   {1, 40, 4.0f}, {2, 40, 4.0f},
                                   {3, 40, 4.0f}, {1, 0, -0.5f}, {2, -1, 1.5f}, {7, 9, 9.0f},
                                   {2, 70000, 3.0f}, {2, 3000000000LL, 2.0f}};

// What launch knows of this launch.
w::check::launch_facts facts_of(const w::fuzz::program& p, const launch_shape& l) {
  w::check::launch_facts facts;
  facts.block = {p.block, 1, 1};
  facts.grid = {l.grid, 1, 1};
  facts.values = {std::nullopt, std::nullopt, w::fuzz::received(p.n_type, l.n), std::nullopt};
  facts.sizes = {w::fuzz::buffer_size, w::fuzz::buffer_size, 0, 0};
  return facts;
}

// What launch knows with the buffers' contents measured as the interpreter starts them, and the
// range of the written buffer (inout) widened by what the program stores into it
// (check/launch/written_ranges.hpp): the launch's reading of a load of a buffer the kernel writes.
w::check::launch_facts measured_facts_of(const w::dsl::kernel_ir& ir, const w::fuzz::program& p, const launch_shape& l,
                                         const w::fuzz::interpreter& start) {
  w::check::launch_facts facts = facts_of(p, l);
  facts.contents.resize(4);
  const auto range_of = [](const std::vector<long long>& v) {
    w::check::contents_range r;
    r.lo = r.hi = v.front();
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (v[i] < r.lo) r.lo = v[i], r.lo_at = static_cast<long long>(i);
      if (v[i] > r.hi) r.hi = v[i], r.hi_at = static_cast<long long>(i);
    }
    return r;
  };
  facts.contents[1] = range_of(start.in());
  const std::vector<std::optional<w::check::contents_range>> before = {range_of(start.inout()), std::nullopt, std::nullopt, std::nullopt};
  w::check::widen_written_contents(ir, facts, before, {1, 0, 0, 0});
  return facts;
}

// Whether launch refuses this launch before running it: E104 (an unsigned operation that decides
// something may wrap) or E106 (an obligation of the checker's verdict fails).
bool refused_before_running(const w::dsl::kernel_ir& ir, const w::check::finding& verdict, const w::fuzz::program& p,
                            const launch_shape& l) {
  const w::check::launch_facts facts = facts_of(p, l);
  const std::vector<std::string> names = {"inout", "in", "n", "p"};
  return !w::check::first_integer_wrap(ir, facts, names).empty() ||
         !w::check::first_unmet_obligation(ir, facts, names, verdict.obligations).empty();
}

// Whether an access's index reads a local through the value it holds (dsl/local_values.hpp): the
// programs that put the launch's reading of locals to the oracle.
bool reads_followed_local(const w::dsl::kernel_ir& ir, int id) {
  if (id < 0) return false;
  const w::dsl::ir_expr& e = ir.exprs[static_cast<std::size_t>(id)];
  if (e.op == w::dsl::ir_op::local_var) return e.held >= 0;
  return reads_followed_local(ir, e.a) || reads_followed_local(ir, e.b);
}
bool indexes_through_followed_local(const w::dsl::kernel_ir& ir) {
  for (const auto& a : ir.accesses)
    if (reads_followed_local(ir, a.index)) return true;
  return false;
}

bool racy(const w::recording& r) {
  for (const auto& c : r.conflicts())
    if (c.kind != w::conflict_kind::uninitialised_shared_load) return true;
  return false;
}

// With trusted statements: a conflict between two accesses that are not both trusted (the
// recording reports one pair per element, which could be a trusted pair hiding a plain one), or
// any divergence report.
bool racy_beyond_trusted(const w::fuzz::run_result& run) {
  for (const auto& c : run.record.conflicts())
    if (c.kind == w::conflict_kind::barrier_divergence || c.kind == w::conflict_kind::shuffle_divergence) return true;
  auto ev = run.events;
  auto key = [](const w::fuzz::run_result::event& e) {
    const w::access_event& a = e.access;
    const int block = a.memory == w::dsl::memory_kind::shared ? a.block : -1;  // a tile per block
    return std::make_tuple(static_cast<int>(a.memory), a.target, block, a.index);
  };
  std::sort(ev.begin(), ev.end(), [&](const auto& x, const auto& y) { return key(x) < key(y); });
  for (std::size_t begin = 0; begin < ev.size();) {
    std::size_t end = begin + 1;
    while (end < ev.size() && key(ev[end]) == key(ev[begin])) ++end;
    for (std::size_t i = begin; i < end; ++i)
      for (std::size_t j = i + 1; j < end; ++j) {
        const w::access_event& a = ev[i].access;
        const w::access_event& b = ev[j].access;
        if (ev[i].trusted && ev[j].trusted) continue;
        if (a.block == b.block && (a.thread == b.thread || a.phase != b.phase)) continue;  // ordered
        const bool a_atomic = a.kind == w::dsl::access_kind::atomic, b_atomic = b.kind == w::dsl::access_kind::atomic;
        if (a_atomic && b_atomic) continue;
        if (a_atomic != b_atomic || a.kind == w::dsl::access_kind::store || b.kind == w::dsl::access_kind::store) return true;
      }
    begin = end;
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  long programs = 2000;
  unsigned seed = 1;
  long min_pairs_met_percent = 0;  // --min-pairs-met: the least share of named pairs a run must reproduce
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--min-pairs-met") == 0) min_pairs_met_percent = std::atol(argv[i + 1]);
    if (std::strcmp(argv[i], "--programs") == 0) programs = std::atol(argv[i + 1]);
    else if (std::strcmp(argv[i], "--seed") == 0) seed = static_cast<unsigned>(std::atol(argv[i + 1]));
  }
  long reopened = 0, accepted = 0, accepted_extended = 0, accepted_with_obligations = 0, rejected = 0, false_positive = 0, out_of_bounds = 0, unsound = 0, by_code[w::diagnostic::code_count + 1] = {};
  long merge_compared = 0, merge_mismatch = 0;
  long followed_runs = 0, followed_overruns = 0;  // launches of programs indexing through a followed local
  long measured_only = 0;  // launches in bounds that only the measured contents (and inout's widened range) let through
  long written_only = 0;   // of those, launches that inout's range let through
  // Refusals of racy programs that name a pair of accesses, and those whose pair some run makes a
  // conflicting pair (recording::meets; issue 56, item 4: the pair a message names must meet).
  long named_pairs = 0, named_pairs_met = 0, unmet_by_code[w::diagnostic::code_count + 1] = {};
  w::fuzz::generator gen(seed);
  for (long k = 0; k < programs; ++k) {
    const w::fuzz::program p = gen.make();
    const w::dsl::kernel_ir ir = w::fuzz::lowering(p).run();
    const w::check::finding verdict = w::check::analyse(ir, {p.block, 1, 1});
    // The footprints' merged loops (a loop whose counter an access does not read, listed as one
    // pass: check/footprint.hpp) against the full listing: the same finding, on the same pair, in
    // both listings the shared rules make (static trips; run-time trips assumed up to the limit).
    for (const long long assumed : {0LL, w::check::assumed_trip_limit}) {
      const w::check::block_shape shape{p.block, 1, 1};
      unsigned long long assumed_merged = 0, assumed_full = 0;
      bool large_merged = false, large_full = false;
      const w::check::finding merged = w::check::check_shared_listing(ir, shape, assumed, &assumed_merged, nullptr, &large_merged);
      const w::check::finding full =
          w::check::check_shared_listing(ir, shape, assumed, &assumed_full, nullptr, &large_full, false, /*merge_unread_loops=*/false);
      if (large_merged || large_full) continue;  // past the budget: says nothing either way
      if (merged.code != full.code || merged.first != full.first || merged.second != full.second || merged.loop != full.loop ||
          assumed_merged != assumed_full) {
        ++merge_mismatch;
        std::printf("MERGED LISTING DIFFERS: program %ld (seed %u, assumed trips %lld): %s on %d and %d, the full listing %s on %d and %d\n",
                    k, seed, assumed, w::diagnostic::to_string(merged.code), merged.first, merged.second,
                    w::diagnostic::to_string(full.code), full.first, full.second);
        print_program(ir);
      }
      merge_compared += 1;
    }
    // A scope opened at an enclosing one's level hides that one's variable: refused, whatever the
    // run would show (its facts name the wrong variable; docs/soundness.md).
    if (p.reopened) {
      ++reopened;
      if (verdict.code != w::diagnostic::code::W032) {
        ++unsound;
        std::printf("UNCAUGHT: program %ld (seed %u) opens a scope at an enclosing one's level, and the checker says %s\n", k,
                    seed, w::diagnostic::to_string(verdict.code));
        print_program(ir);
      }
    }
    bool any_race = false, judged = false, pair_met = false;
    w::recording witness;
    std::vector<const void*> origins;
    for (const w::dsl::ir_access& a : ir.accesses) origins.push_back(a.origin);
    // A kernel that never names a block coordinate runs on one block: launch throws E102 otherwise.
    const bool one_block = w::check::grid_dims_of(ir) == 0;
    const bool followed = indexes_through_followed_local(ir);
    for (const launch_shape& l : shapes) {
      if (one_block && l.grid > 1) continue;
      if (refused_before_running(ir, verdict, p, l)) continue;  // launch throws before running
      w::fuzz::interpreter machine(p, l.grid, l.n, seed + static_cast<unsigned>(k), l.p);
      const w::check::launch_facts measured = measured_facts_of(ir, p, l, machine);
      auto result = machine.run();
      if (result.too_long && !result.out_of_bounds) continue;  // cut short: neither side judged
      followed_runs += followed;
      followed_overruns += followed && result.out_of_bounds;
      const std::vector<std::string> names = {"inout", "in", "n", "p"}, kinds = {"buffer", "buffer", "value", "value"};
      if (result.out_of_bounds) {  // launch must throw E101 before running it, with or without the contents
        for (const bool with_contents : {false, true})
          if (w::check::first_overrun(ir, with_contents ? measured : facts_of(p, l), names, kinds).empty()) {
            ++unsound;
            std::printf("UNSOUND: program %ld (seed %u, block %d, grid %d, n %lld) runs out of bounds, and launch sees no overrun%s\n",
                        k, seed, p.block, l.grid, l.n, with_contents ? " (contents measured, inout's range widened by its stores)" : "");
            print_program(ir);
          }
        continue;
      }
      // A launch the contents let through (loads of in and inout bounded by what they hold).
      if (!w::check::first_overrun(ir, facts_of(p, l), names, kinds).empty() && w::check::first_overrun(ir, measured, names, kinds).empty()) {
        ++measured_only;
        w::check::launch_facts in_only = measured;
        in_only.contents[0].reset();
        written_only += !w::check::first_overrun(ir, in_only, names, kinds).empty() && measured.contents[0] && measured.contents[0]->widened;
      }
      judged = true;
      if (verdict.first >= 0 && verdict.second >= 0 && !pair_met) {
        result.record.access_origins(origins);
        pair_met = result.record.meets(verdict.first, verdict.second);
      }
      if ((result.any_trusted ? racy_beyond_trusted(result) : racy(result.record)) && !any_race) {
        any_race = true;
        witness = std::move(result.record);
      }
    }
    if (!judged) {  // every launch refused (E101, E104): neither side judged
      ++out_of_bounds;
      continue;
    }
    ++by_code[static_cast<int>(verdict.code)];
    if (verdict.code == w::diagnostic::code::none) {
      ++accepted;
      accepted_extended += p.extended;
      accepted_with_obligations += verdict.obligations.empty() ? 0 : 1;
      if (any_race) {
        ++unsound;
        std::printf("UNSOUND: program %ld (seed %u, block %d) accepted, but recorded: %s\n", k, seed, p.block,
                    witness.report(3).c_str());
        print_program(ir);
      }
    } else {
      ++rejected;
      false_positive += !any_race;
      if (any_race && verdict.first >= 0 && verdict.second >= 0 && w::diagnostic::row(verdict.code).kind == w::diagnostic::kind::race) {
        ++named_pairs;
        named_pairs_met += pair_met;
        unmet_by_code[static_cast<int>(verdict.code)] += !pair_met;
        if (!pair_met && named_pairs - named_pairs_met <= 3) {
          std::printf("NAMED PAIR DOES NOT MEET: program %ld (seed %u) refused %s naming accesses %d and %d; recorded: %s\n", k,
                      seed, w::diagnostic::to_string(verdict.code), verdict.first, verdict.second, witness.report(2).c_str());
          print_program(ir);
        }
      }
    }
  }
  std::printf("launches of programs whose indices read a local's held value: %ld, of which %ld overrun (each refused E101)\n",
              followed_runs, followed_overruns);
  std::printf("launches in bounds that only the measured contents and inout's widened range let through: %ld, of which inout's range: %ld\n",
              measured_only, written_only);
  std::printf("programs %ld  accepted %ld  rejected %ld  false-positive %ld  out-of-bounds %ld  accepted-but-racy %ld\n",
              programs, accepted, rejected, false_positive, out_of_bounds, unsound);
  std::printf("racy programs refused naming a pair: %ld, of which a run reproduces the pair: %ld\n", named_pairs, named_pairs_met);
  std::printf("named pairs no run reproduces, by code:");
  for (const w::diagnostic::entry& e : w::diagnostic::table)
    if (e.kind == w::diagnostic::kind::race && unmet_by_code[static_cast<int>(e.code)] > 0)
      std::printf(" %.*s %ld", static_cast<int>(e.name.size()), e.name.data(), unmet_by_code[static_cast<int>(e.code)]);
  std::printf("\n");
  std::printf("accepted with unsigned, float, call or nested-tile shapes: %ld\n", accepted_extended);
  std::printf("accepted with launch obligations: %ld\n", accepted_with_obligations);
  std::printf("scopes opened at an enclosing one's level (all refused, W032): %ld\n", reopened);
  std::printf("shared listings with merged loops compared with the full listing: %ld, differing %ld\n", merge_compared, merge_mismatch);
  std::printf("rejections by code:");
  for (const w::diagnostic::entry& e : w::diagnostic::table)
    if (e.kind == w::diagnostic::kind::race)
      std::printf(" %.*s %ld", static_cast<int>(e.name.size()), e.name.data(), by_code[static_cast<int>(e.code)]);
  std::printf("\n");
  const bool pairs_ok = named_pairs_met * 100 >= min_pairs_met_percent * named_pairs;
  if (!pairs_ok)
    std::printf("FEWER NAMED PAIRS MEET THAN --min-pairs-met %ld%%: %ld of %ld\n", min_pairs_met_percent, named_pairs_met, named_pairs);
  return unsound == 0 && merge_mismatch == 0 && pairs_ok ? 0 : 1;
}
