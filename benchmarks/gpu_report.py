#!/usr/bin/env python3
"""Turns one run of examples_gpu_bench (JSON, with repetitions) into the GPU section of
docs/benchmarks.md, and each example's README "Speed against the twin" paragraph and its column in
examples/README.md. Called by scripts/gpu-bench, which also passes the device and the commands.

    benchmarks/gpu_report.py --examples examples.json --device "NVIDIA H100 ..., driver ..." \
        --cuda "13.0" --command "..." [--pool pool.md]

Per example and size: the median time of warden, its twin and the library baseline over the
repetitions, their coefficient of variation (the spread), warden / twin and warden / library, and
for bandwidth-bound kernels the achieved GB/s and its fraction of the device-to-device copy at the
same size. Targets (issue 7): median warden / twin at most 1.02 over all examples and sizes, none
above 1.05; reduction at least 90% of the copy bandwidth and within 5% of CUB (largest size).
"""
import argparse
import json
import re
import statistics
import sys
from collections import defaultdict

from report_common import add_run_arguments, run_header, write_section

EXAMPLES = ["saxpy", "reverse_block", "reduction", "transpose", "matmul", "stencil_2d", "histogram",
            "blelloch_scan", "softmax", "bitonic_sort", "reduction_fast", "histogram_fast", "scan_fast", "matmul_fast"]
LIBRARY = {"reduction": "CUB DeviceReduce::Sum", "histogram": "CUB DeviceHistogram::HistogramEven",
           "blelloch_scan": "CUB DeviceScan::ExclusiveSum (whole input; the example scans per block)",
           "matmul": "cuBLAS sgemm", "reduction_fast": "CUB DeviceReduce::Sum",
           "histogram_fast": "CUB DeviceHistogram::HistogramEven", "scan_fast": "CUB DeviceScan::ExclusiveSum",
           "matmul_fast": "cuBLAS sgemm"}
# Issue 17's goals for the fast examples: (example, the most warden / library time at the largest size).
FAST_GOALS = [("reduction_fast", 1.10), ("histogram_fast", 1.5), ("scan_fast", 1.5), ("matmul_fast", 2.0)]


def load(path):
    """(example, impl, size) -> {"median": s, "cv": x, "GB/s": ..., "GFLOP/s": ...}"""
    out = defaultdict(dict)
    for b in json.load(open(path))["benchmarks"]:
        if b.get("run_type") != "aggregate":
            continue
        if b.get("error_occurred"):
            sys.exit(f"gpu_report: {b['run_name']}: {b.get('error_message')}")
        example, impl, size = re.match(r"(\w+)/(\w+)/(\d+)", b["run_name"]).groups()
        entry = out[(example, impl, int(size))]
        if b["aggregate_name"] == "median":
            entry["median"] = b["real_time"] * 1e-6  # us -> s
            for counter in ("GB/s", "GFLOP/s"):
                if counter in b:
                    entry[counter] = b[counter]
        elif b["aggregate_name"] == "cv":
            entry["cv"] = b["real_time"]  # a fraction: Google Benchmark reports cv as time / time
    return out


def fmt_us(seconds):
    return f"{seconds * 1e6:.1f}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--examples", required=True)
    parser.add_argument("--pool", help="a Markdown file with pool_report.py's table")
    add_run_arguments(parser)
    args = parser.parse_args()
    runs = load(args.examples)

    lines = ["| example | size | twin us | warden us | warden / twin | spread (cv) warden, twin | GB/s warden | "
             "of copy | library us | warden / library |", "|---|---|---|---|---|---|---|---|---|---|"]
    ratios, per_example, verdicts = [], defaultdict(list), []
    for example in EXAMPLES:
        sizes = sorted(size for (e, impl, size) in runs if e == example and impl == "warden")
        for size in sizes:
            w, t = runs[(example, "warden", size)], runs[(example, "twin", size)]
            lib = runs.get((example, "library", size))
            copy = runs.get(("copy", "roof", size))
            ratio = w["median"] / t["median"]
            ratios.append(ratio)
            per_example[example].append((size, ratio))
            gbs = f"{w['GB/s']:.0f}" if "GB/s" in w else (f"{w['GFLOP/s']:.0f} GFLOP/s" if "GFLOP/s" in w else "")
            frac = f"{w['GB/s'] / copy['GB/s']:.2f}" if "GB/s" in w and copy else ""
            lib_us = fmt_us(lib["median"]) if lib else ""
            lib_ratio = f"{w['median'] / lib['median']:.2f}" if lib else ""
            lines.append(f"| {example} | {size} | {fmt_us(t['median'])} | {fmt_us(w['median'])} | {ratio:.3f} | "
                         f"{w.get('cv', 0):.3f}, {t.get('cv', 0):.3f} | {gbs} | {frac} | {lib_us} | {lib_ratio} |")
    median_ratio = statistics.median(ratios)
    worst = max(ratios)
    verdicts.append(f"median warden / twin {median_ratio:.3f} (target <= 1.02: "
                    f"{'met' if median_ratio <= 1.02 else 'missed'}), worst {worst:.3f} (target <= 1.05: "
                    f"{'met' if worst <= 1.05 else 'missed'})")
    largest = max(size for (e, impl, size) in runs if e == "reduction")
    red, cub, copy = runs[("reduction", "warden", largest)], runs[("reduction", "library", largest)], runs[("copy", "roof", largest)]
    fraction = red["GB/s"] / copy["GB/s"]
    to_cub = red["median"] / cub["median"]
    verdicts.append(f"reduction at {largest} elements: {fraction:.2f} of the copy bandwidth (target >= 0.90: "
                    f"{'met' if fraction >= 0.90 else 'missed'}), {to_cub:.3f} x CUB's time (target <= 1.05: "
                    f"{'met' if to_cub <= 1.05 else 'missed'})")
    fast = [e for e, _ in FAST_GOALS if any(k[0] == e for k in runs)]
    if fast:
        rf_largest = max(size for (e, impl, size) in runs if e == "reduction_fast")
        rf, rf_copy = runs[("reduction_fast", "warden", rf_largest)], runs[("copy", "roof", rf_largest)]
        verdicts.append(f"reduction_fast at {rf_largest} elements: {rf['GB/s'] / rf_copy['GB/s']:.2f} of the copy bandwidth "
                        f"(target >= 0.90: {'met' if rf['GB/s'] / rf_copy['GB/s'] >= 0.90 else 'missed'})")
    for example, most in FAST_GOALS:
        if example not in fast:
            continue
        largest_fast = max(size for (e, impl, size) in runs if e == example)
        to_lib = runs[(example, "warden", largest_fast)]["median"] / runs[(example, "library", largest_fast)]["median"]
        to_twin = max(r for _, r in per_example[example])
        verdicts.append(f"{example} at {largest_fast}: {to_lib:.2f} x the library's time (target <= {most}: "
                        f"{'met' if to_lib <= most else 'missed'}); warden / twin at most {to_twin:.3f} (target <= 1.02: "
                        f"{'met' if to_twin <= 1.02 else 'missed'})")
    lint_sizes = sorted(size for (e, impl, size) in runs if e == "w050_transpose" and impl == "padded")
    if lint_sizes:
        largest_lint = lint_sizes[-1]
        unpadded, padded = runs[("w050_transpose", "unpadded", largest_lint)], runs[("w050_transpose", "padded", largest_lint)]
        verdicts.append(f"W050 followed: the 32 x 32 transpose tile padded takes {padded['median'] / unpadded['median']:.2f} x "
                        f"the unpadded one's time at {largest_lint} elements (the lint's 32-way conflicts removed)")
    copies = ", ".join(f"{size}: {runs[('copy', 'roof', size)]['GB/s']:.0f} GB/s"
                       for size in sorted(s for (e, i, s) in runs if e == "copy"))
    text = run_header(args.device, args.cuda, args.command)
    text += ["", f"Device-to-device copy (read + write): {copies}. Library baselines: " +
             "; ".join(f"{k}: {v}" for k, v in LIBRARY.items()) + ".", ""]
    text += lines + ["", "Targets:", ""] + [f"- {v}" for v in verdicts]
    if args.pool:
        text += ["", "### The pool on the GPU", "", open(args.pool).read().strip()]
    section = "\n".join(text)

    write_section(args.doc, "gpu", section)

    # The examples' READMEs and table carry the ratios.
    for example, points in per_example.items():
        summary = ", ".join(f"{r:.3f} at {size}" for size, r in points)
        path = f"examples/{example}/README.md"
        readme = open(path).read()
        readme = re.sub(r"\*\*Speed against the twin\.\*\*.*?(\n\n)",
                        f"**Speed against the twin.** warden / twin median time {summary} elements "
                        f"({args.device}; docs/benchmarks.md has the times, spread and GB/s).\\1", readme, flags=re.S)
        open(path, "w").write(readme)
    table = open("examples/README.md").read()
    for example, points in per_example.items():
        span = f"{min(r for _, r in points):.3f}-{max(r for _, r in points):.3f}"
        # The cell holds "not yet measured" or an earlier run's span: either is replaced.
        table = re.sub(rf"(\| \[{example}\]\({example}/\) \|.*\| )(?:not yet measured|\d+\.\d{{3}}-\d+\.\d{{3}})( \|)",
                       rf"\g<1>{span}\2", table)
    open("examples/README.md", "w").write(table)
    print(section)
    return 0


if __name__ == "__main__":
    sys.exit(main())
