#!/usr/bin/env python3
"""Compile time of each example (issue 7): runs `compile_cost_bench --sweep=examples` and writes the
table into docs/benchmarks.md between its markers (and prints it).

    benchmarks/example_compile_report.py build/default/benchmarks/compile_cost_bench [--repetitions 3]

Per example, the whole program compiled to an object at -O3 for sm_90: the warden version with
nvcc (`<name>_cuda.cu`) and with g++ (`<name>_main.cpp`, cpu backend), the hand-written twin with
nvcc (`<name>_twin.cu`); fastest of the repetitions, side by side in one run. Target: warden at
most 2x its twin with nvcc.
"""
import argparse
import datetime
import json
import platform
import re
import subprocess
import sys

TARGET = 2.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--repetitions", type=int, default=3)
    parser.add_argument("--doc", default="docs/benchmarks.md")
    args = parser.parse_args()
    command = [args.binary, "--sweep=examples", f"--benchmark_repetitions={args.repetitions}",
               "--benchmark_report_aggregates_only=true", "--benchmark_format=json"]
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    times = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("aggregate_name") != "min":
            continue
        if b.get("error_occurred"):
            sys.exit(f"example_compile_report: {b['run_name']}: {b.get('error_message')}")
        name, variant = re.match(r"examples/(\w+)/([\w+-]+)", b["run_name"]).groups()
        times.setdefault(name, {})[variant] = b["real_time"] / 1e3  # ms -> s
    lines = ["| example | twin, nvcc s | warden, nvcc s | warden / twin (nvcc) | warden, g++ (cpu backend) s | g++ / twin nvcc |",
             "|---|---|---|---|---|---|"]
    ratios = []
    for name, t in times.items():
        ratio = t["warden-nvcc"] / t["twin-nvcc"]
        ratios.append(ratio)
        lines.append(f"| {name} | {t['twin-nvcc']:.2f} | {t['warden-nvcc']:.2f} | {ratio:.2f} | {t['warden-g++']:.2f} | "
                     f"{t['warden-g++'] / t['twin-nvcc']:.2f} |")
    worst = max(ratios)
    verdict = "met" if worst <= TARGET else "missed"
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    machine = f"{platform.node()} ({platform.machine()})"
    shown = " ".join(c for c in command if c != "--benchmark_format=json")
    text = "\n".join(lines) + (f"\n\nTarget (warden at most {TARGET:.0f}x its twin with nvcc): **{verdict}** "
                               f"(worst {worst:.2f}x). Command: `{shown}` ({when}, {machine}; fastest of the repetitions).")
    doc = open(args.doc).read()
    begin, end = "<!-- example-compile:begin -->", "<!-- example-compile:end -->"
    if begin in doc:
        head, rest = doc.split(begin, 1)
        open(args.doc, "w").write(head + begin + "\n" + text + "\n" + end + rest.split(end, 1)[1])
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
