#!/usr/bin/env python3
"""Runs compile_cost_bench for each compiler and writes the table of check costs into
docs/benchmarks.md between its markers (and prints it).

    benchmarks/compile_cost_report.py build/default/benchmarks/compile_cost_bench \
        [--compilers g++ clang++ nvcc] [--repetitions 3] [--budget-only nvcc]

The check's cost at a point is min(checked) - min(unchecked) over the repetitions: the same
kernel compiled with and without warden::kernel's static_assert, side by side in one run (on a
shared machine interference only adds time, so the fastest run is the best estimate).
"""
import argparse
import datetime
import platform
import re
import sys

from report_common import fastest_times, write_section

BUDGET_S = 2.0  # a 1024-thread kernel with 32 accesses adds at most this


def run(binary, compiler, repetitions, budget_only):
    command = [binary, f"--compiler={compiler}", f"--benchmark_repetitions={repetitions}",
               "--benchmark_report_aggregates_only=true"]
    if budget_only:
        command.append("--sweep=budget")
    medians = {}
    for run_name, seconds in fastest_times(command, "compile_cost_report").items():
        # name: "g++/shift/checked/threads:1024/rounds:8/iterations:1/manual_time"
        m = re.match(r"([^/]+)/(\w+)/(\w+)/threads:(\d+)/rounds:(\d+)", run_name)
        _, family, mode, threads, rounds = m.groups()
        medians[(family, int(threads), 4 * int(rounds), mode)] = seconds
    return " ".join(command), medians


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--compilers", nargs="+", default=["g++", "clang++", "nvcc"])
    parser.add_argument("--budget-only", nargs="*", default=["nvcc"],
                        help="compilers measured only at 1024 threads x 32 accesses")
    parser.add_argument("--repetitions", type=int, default=3)
    parser.add_argument("--doc", default="docs/benchmarks.md")
    args = parser.parse_args()

    lines, commands, verdicts = [], [], []
    lines.append("| compiler | kernel | threads | accesses | unchecked s | checked s | check adds s |")
    lines.append("|---|---|---|---|---|---|---|")
    for compiler in args.compilers:
        command, medians = run(args.binary, compiler, args.repetitions, compiler in args.budget_only)
        commands.append(f"`{command}`")
        points = sorted({k[:3] for k in medians}, key=lambda k: (k[0], k[2] != 32, k[1], k[2]))
        for family, threads, accesses in points:
            checked = medians.get((family, threads, accesses, "checked"))
            unchecked = medians.get((family, threads, accesses, "unchecked"))
            added = checked - unchecked
            mark = ""
            if threads == 1024 and accesses == 32:
                ok = added <= BUDGET_S
                mark = " (budget 2 s: **met**)" if ok else " (budget 2 s: **missed**)"
                verdicts.append((compiler, family, added, ok))
            lines.append(f"| {compiler} | {family} | {threads} | {accesses} | {unchecked:.2f} | {checked:.2f} | "
                         f"{added:+.2f}{mark} |")
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    machine = f"{platform.node()} ({platform.machine()}), {platform.processor() or 'cpu'}"
    text = "\n".join(lines) + "\n\nCommands (fastest of the repetitions; " + when + ", " + machine + "):\n" + \
        "\n".join(f"- {c}" for c in commands)
    write_section(args.doc, "compile-cost", text)
    print(text)
    return 0 if all(ok for *_, ok in verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
