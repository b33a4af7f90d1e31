#!/usr/bin/env python3
"""Turns one run of launch_cost_gpu_bench (JSON, with repetitions) into the "launch cost on the GPU"
section of docs/benchmarks.md (issue 18). Called by scripts/gpu-bench.

    benchmarks/launch_cost_report.py --json launch.json --device "NVIDIA H100 ..." --cuda 13.0 \
        [--command "..."] [--doc docs/benchmarks.md]

Per kernel and stream: the median host time per launch of w::launch and of <<<>>> (from the
median items_per_second, launches per second), and their ratio; the target is warden at most 1.2x
<<<>>> in every case. Then a loop of 100 launches against one replay of its captured graph.
"""
import argparse
import json
import re
import sys

from report_common import add_run_arguments, run_header, write_section

TARGET = 1.2


def load(path):
    """run name -> median seconds per launch (1 / items_per_second)."""
    out = {}
    for b in json.load(open(path))["benchmarks"]:
        if b.get("error_occurred"):
            sys.exit(f"launch_cost_report: {b['run_name']}: {b.get('error_message')}")
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        if "items_per_second" not in b:
            continue
        out[b["run_name"]] = 1.0 / b["items_per_second"]
    return out


def section(runs, device, cuda, commands):
    lines = ["| kernel | stream | `<<<>>>` µs per launch | `w::launch` µs per launch | warden / `<<<>>>` |",
             "|---|---|---|---|---|"]
    ratios = []
    for name in sorted(runs):
        m = re.fullmatch(r"(\w+)/warden/(\w+)", name)
        if not m or f"{m.group(1)}/cuda/{m.group(2)}" not in runs:
            continue
        kernel, stream = m.groups()
        warden, cuda_time = runs[name], runs[f"{kernel}/cuda/{stream}"]
        ratios.append((warden / cuda_time, kernel, stream))
        lines.append(f"| {kernel} | {stream.replace('_', ' ')} | {cuda_time * 1e6:.2f} | {warden * 1e6:.2f} | "
                     f"{warden / cuda_time:.2f} |")
    if not ratios:
        sys.exit("launch_cost_report: no pair of warden and <<<>>> cases in the run")
    worst = max(ratios)
    verdicts = [f"worst warden / `<<<>>>` {worst[0]:.2f} ({worst[1]}, {worst[2].replace('_', ' ')}; target <= {TARGET}: "
                f"{'met' if worst[0] <= TARGET else 'missed'})"]
    loop, graph = runs.get("loop_100/warden_launches"), runs.get("loop_100/warden_graph_replay")
    if loop and graph:
        verdicts.append(f"a loop of 100 launches: {loop * 1e6:.2f} µs per launch launched one by one, "
                        f"{graph * 1e6:.2f} µs per launch replayed as a graph ({loop / graph:.1f}x faster)")
    text = run_header(device, cuda, commands)
    text += [""] + lines + ["", "Targets:", ""] + [f"- {v}" for v in verdicts]
    return "\n".join(text)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--json", required=True)
    add_run_arguments(parser)
    args = parser.parse_args()
    text = section(load(args.json), args.device, args.cuda, args.command)
    write_section(args.doc, "launch-gpu", text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
