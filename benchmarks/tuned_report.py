#!/usr/bin/env python3
"""The tuned kernels' table of docs/benchmarks.md, from a run of tuned_gpu_bench (Google Benchmark
JSON with --benchmark_repetitions): for each kernel and size, the candidate the tuner chose (the
tuned case's label), its time, the best candidate launched alone, and whether the tuned time is
within 2% of that best. Medians of the repetitions.

    benchmarks/tuned_report.py --json tuned.json --device "NVIDIA H200, ..." --cuda 13.0 --command "..."
"""
import argparse
import json
import sys

from report_common import add_run_arguments, run_header, write_section

WITHIN = 1.02


def medians(path):
    """{(kernel, variant, size): (seconds, label)} from the median aggregates."""
    out = {}
    for b in json.load(open(path))["benchmarks"]:
        if b.get("aggregate_name") != "median":
            continue
        if b.get("error_occurred"):
            sys.exit(f"tuned_report: {b['run_name']}: {b.get('error_message')}")
        # run_name: kernel/variant/size/iterations:N/manual_time
        parts = b["run_name"].split("/")
        kernel, variant, size = parts[0], parts[1], int(parts[2])
        scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[b["time_unit"]]
        out[(kernel, variant, size)] = (b["real_time"] * scale, b.get("label", ""))
    return out


def table(results):
    rows = ["| kernel | size | tuned picks | tuned (us) | best alone | best (us) | tuned / best | within 2% |",
            "|---|---:|---|---:|---|---:|---:|---|"]
    cases = sorted({(k, s) for (k, v, s) in results}, key=lambda c: (c[0], c[1]))
    within = 0
    counted = 0
    for kernel, size in cases:
        tuned = results.get((kernel, "tuned", size))
        alone = {v: t for (k, v, s), (t, _) in results.items() if k == kernel and s == size and v != "tuned"}
        if tuned is None or not alone:
            continue
        best = min(alone, key=alone.get)
        ratio = tuned[0] / alone[best]
        ok = ratio <= WITHIN
        counted += 1
        within += ok
        rows.append(f"| {kernel} | {size} | {tuned[1] or '?'} | {tuned[0] * 1e6:.2f} | {best} | {alone[best] * 1e6:.2f} | "
                    f"{ratio:.3f} | {'yes' if ok else 'no'} |")
    return rows, within, counted


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--json", required=True)
    add_run_arguments(parser)
    args = parser.parse_args()
    rows, within, counted = table(medians(args.json))
    if counted == 0:
        sys.exit("tuned_report: no case has both a tuned and a fixed time")
    text = run_header(args.device, args.cuda, args.command) + [
        "",
        f"**The tuned choice is within 2% of the best candidate launched alone in {within} of {counted} cases.**",
        "",
    ] + rows
    write_section(args.doc, "tuned", "\n".join(text))
    print("\n".join(text))


if __name__ == "__main__":
    main()
