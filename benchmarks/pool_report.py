#!/usr/bin/env python3
"""Runs a pool benchmark binary (pool_bench or pool_gpu_bench) and prints a Markdown table of
median times per operation, with each allocator's ratio to warden's pool in the same run.

    benchmarks/pool_report.py build/default/benchmarks/pool_bench [--repetitions 5]
"""
import argparse
import json
import os
import platform
import re
import subprocess
import sys
from collections import defaultdict


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--repetitions", type=int, default=5)
    # Seconds per benchmark and repetition (Google Benchmark's default is 0.5: with 24 cases and 5
    # repetitions the GPU pool's run took past 90 s on an H200). A bare number: Debian's 1.7 takes no "s".
    parser.add_argument("--min-time", type=float, default=None)
    args = parser.parse_args()

    command = [args.binary, f"--benchmark_repetitions={args.repetitions}",
               "--benchmark_report_aggregates_only=true", "--benchmark_format=json"]
    if args.min_time is not None:
        command.append(f"--benchmark_min_time={args.min_time}")
    run = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)

    # name: "same_size<warden_pool>/4096_median" -> pattern, allocator, argument
    medians = defaultdict(dict)
    for b in run["benchmarks"]:
        if b.get("aggregate_name") != "median":
            continue
        m = re.match(r"(\w+)<(\w+)>/(\d+)", b["run_name"])
        pattern, allocator, argument = m.group(1), m.group(2), int(m.group(3))
        items = b.get("items_per_second")
        ns_per_op = 1e9 / items if items else float("nan")
        medians[(pattern, argument)][allocator] = ns_per_op

    context = run["context"]
    # The binary as the repository names it (build/..., gpu-bundle/...), not this machine's path.
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    binary = os.path.abspath(command[0])
    shown = os.path.relpath(binary, root) if binary.startswith(root + os.sep) else os.path.basename(binary)
    print(f"Command: `{' '.join([shown] + command[1:-1])}`  ")
    print(f"Machine: {platform.node()} ({platform.machine()}), {context.get('num_cpus')} CPUs at "
          f"{context.get('mhz_per_cpu')} MHz; date {context.get('date')}\n")
    allocators = sorted({a for row in medians.values() for a in row}, key=lambda a: (a != "warden_pool", a))
    print("| pattern | argument | " + " | ".join(f"{a} ns/op" for a in allocators) + " | "
          + " | ".join(f"{a} / warden" for a in allocators if a != "warden_pool") + " |")
    print("|---|---|" + "---|" * (2 * len(allocators) - 1))
    for (pattern, argument), row in sorted(medians.items()):
        times = [f"{row[a]:.1f}" if a in row else "-" for a in allocators]
        ratios = [f"{row[a] / row['warden_pool']:.2f}" if a in row and "warden_pool" in row else "-"
                  for a in allocators if a != "warden_pool"]
        print(f"| {pattern} | {argument} | " + " | ".join(times) + " | " + " | ".join(ratios) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
