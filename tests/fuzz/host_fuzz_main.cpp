// warden_host_fuzz: random host programs against the CUDA runtime stand-in, checked by a value
// oracle (tests/fuzz/host_program.hpp; issue 33, item 3).
//
//   warden_host_fuzz [--programs N] [--seed S] [--threads | --no-threads] [--per-thread | --no-per-thread]
//                    [--views | --no-views] [--no-concurrent-captures] [--ops MIN MAX] [--focus scratch|stream-death|pinned-refill|per-thread|moved-from|gathers]
//                    [--replay P]   run only program P (the seed a report names) and print its op log
//
// Prints the counts (programs, ops, read-backs checked, lost and stale values, stand-in misuses,
// refusals by kind), the first failing programs' op logs, and exits 1 on any lost or stale value,
// misuse, refusal of a correct program, or exception no op expected.
#include "host_program.hpp"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>

namespace hf = warden_host_fuzz;

namespace {
// The program running now, named if the process crashes (a crash is a finding too: --replay it).
volatile std::uint64_t current_program = 0;

extern "C" void on_crash(int sig) {
  char text[96];
  const int n = std::snprintf(text, sizeof text, "\nwarden_host_fuzz: signal %d in program %llu (--replay it)\n", sig,
                              static_cast<unsigned long long>(current_program));
  if (n > 0) (void)!write(2, text, static_cast<std::size_t>(n));
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}
}  // namespace

int main(int argc, char** argv) {
  long programs = 1000;
  std::uint64_t seed = 1;
  std::optional<std::uint64_t> replay;
  hf::options opt;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> const char* {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "warden_host_fuzz: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--programs") programs = std::strtol(next(), nullptr, 10);
    else if (a == "--seed") seed = std::strtoull(next(), nullptr, 10);
    else if (a == "--threads") opt.threads = true;
    else if (a == "--no-threads") opt.threads = false;
    else if (a == "--per-thread") opt.per_thread = true;
    else if (a == "--no-per-thread") opt.per_thread = false;
    else if (a == "--views") opt.views = true;
    else if (a == "--no-views") opt.views = false;
    else if (a == "--no-concurrent-captures") opt.concurrent_captures = false;
    else if (a == "--focus") opt.focus = next();
    else if (a == "--replay") replay = std::strtoull(next(), nullptr, 10);
    else if (a == "--ops") {
      opt.min_ops = std::atoi(next());
      opt.max_ops = std::atoi(next());
    } else {
      std::fprintf(stderr, "usage: warden_host_fuzz [--programs N] [--seed S] [--threads|--no-threads] "
                           "[--per-thread|--no-per-thread] [--views|--no-views] [--no-concurrent-captures] [--ops MIN MAX] "
                           "[--focus NAME] [--replay P]\n");
      return 2;
    }
  }
  if (opt.max_ops < opt.min_ops || opt.min_ops < 1) {
    std::fprintf(stderr, "warden_host_fuzz: --ops MIN MAX with 1 <= MIN <= MAX\n");
    return 2;
  }

  std::signal(SIGSEGV, on_crash);
  std::signal(SIGABRT, on_crash);
  hf::counts total;
  const auto start = std::chrono::steady_clock::now();
  if (replay) {
    opt.print_log = true;
    current_program = *replay;
    total.add(hf::run_program(*replay, opt));
  } else {
    for (long p = 0; p < programs; ++p) {
      // Each program's seed: the number a report names, for --replay.
      const std::uint64_t program_seed = hf::mix(seed * 0x100000001b3ull + static_cast<std::uint64_t>(p));
      current_program = program_seed;
      total.add(hf::run_program(program_seed, opt));
      // The default pools keep blocks of streams long gone; return them now and then.
      if (p % 2000 == 1999) {
        warden::empty_cache();
        warden::default_pool<warden::space::pinned>().empty_cache();
        warden::default_pool<warden::space::managed>().empty_cache();
      }
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  for (const auto& r : total.reports) std::printf("FAILED %s\n", r.c_str());
  std::printf("warden_host_fuzz: seed %llu, %ld programs (%ld threaded, %ld hand-offs), %ld ops, %ld captures, %ld replays\n",
              static_cast<unsigned long long>(seed), total.programs, total.threaded_programs, total.handoffs, total.ops,
              total.captures, total.replays);
  std::printf("  gathers run on measured indices: %ld; buffers from the stream-ordered pool: %ld\n", total.gathers,
              total.ordered_buffers);
  std::printf("  read-backs checked: %ld; lost: %ld; stale: %ld; stand-in misuses: %ld; programs leaving pool memory: %ld; "
              "failed programs: %ld\n", total.readbacks, total.lost, total.stale, total.misuses, total.leaked, total.failed_programs);
  std::printf("  refusals of programs that broke a documented rule:\n");
  for (const auto& [k, v] : total.refusals) std::printf("    %8ld  %s\n", v, k.c_str());
  std::printf("  refusals of correct programs (findings):%s\n", total.refusals_of_correct.empty() ? " none" : "");
  for (const auto& [k, v] : total.refusals_of_correct) std::printf("    %8ld  %s\n", v, k.c_str());
  for (const auto& r : total.refusal_reports) std::printf("    e.g. %s\n", r.c_str());
  std::printf("  %.1f s, %.0f programs/s (per-thread ops %s, threads %s, host views %s, concurrent captures %s%s%s)\n",
              seconds, seconds > 0 ? static_cast<double>(total.programs) / seconds : 0.0, opt.per_thread ? "on" : "off",
              opt.threads ? "on" : "off", opt.views ? "on" : "off", opt.concurrent_captures ? "on" : "off",
              opt.focus.empty() ? "" : ", focus ", opt.focus.c_str());
  const bool clean = total.lost == 0 && total.stale == 0 && total.misuses == 0 && total.leaked == 0 && total.failed_programs == 0 &&
                     total.refusals_of_correct.empty();
  return clean ? 0 : 1;
}
