#!/usr/bin/env python3
"""The GPU report scripts, run without a GPU: gpu_report.py (examples_gpu_bench) and
launch_cost_report.py (launch_cost_gpu_bench) only ever see a real run on a lent GPU, so a mistake
in them would surface only there. This test asks each GPU benchmark binary for its case names
(--benchmark_list_tests needs no GPU), writes a Google Benchmark JSON run of those cases with
made-up times whose ratios are known, runs the report on a copy of the docs, and checks the
tables, the verdicts and the sections it rewrites.

    benchmarks/reports_test.py --source ROOT [--launch-bench BIN] [--examples-bench BIN]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)
        print(f"FAILED: {what}")


def case_names(binary):
    out = subprocess.run([binary, "--benchmark_list_tests"], check=True, capture_output=True, text=True).stdout
    names = [line.strip() for line in out.splitlines() if line.strip()]
    expect(names, f"{binary} --benchmark_list_tests lists no case")
    return names


def aggregates(run_name, seconds, unit, counters, cv=0.01, **extra):
    """One case as Google Benchmark writes it with --benchmark_repetitions: two plain repetitions
    and the mean, median, stddev and cv aggregates. The mean is off by 20% so that a report reading
    it instead of the median shows in the numbers."""
    scale = {"ns": 1e9, "us": 1e6, "ms": 1e3}[unit]
    def one(name, run_type, factor, aggregate=None, aggregate_unit="time"):
        b = {"name": name, "run_name": run_name, "run_type": run_type, "repetitions": 3, "threads": 1,
             "iterations": 10, "real_time": seconds * factor * scale, "cpu_time": seconds * factor * scale,
             "time_unit": unit}
        if aggregate:
            b["aggregate_name"] = aggregate
            b["aggregate_unit"] = aggregate_unit
        for key, value in counters.items():
            b[key] = value / factor
        b.update(extra)
        return b
    rows = [one(run_name, "iteration", 1.0), one(run_name, "iteration", 1.0),
            one(run_name + "_mean", "aggregate", 1.2, "mean"), one(run_name + "_median", "aggregate", 1.0, "median"),
            one(run_name + "_stddev", "aggregate", 0.01, "stddev")]
    cv_row = one(run_name + "_cv", "aggregate", 1.0, "cv", "percentage")
    cv_row["real_time"] = cv_row["cpu_time"] = cv
    for key in counters:
        cv_row[key] = cv
    return rows + [cv_row]


def write_run(path, rows):
    with open(path, "w") as f:
        json.dump({"context": {"date": "2026-11-25", "executable": "synthetic", "num_cpus": 16}, "benchmarks": rows}, f)


def workspace(source):
    """A copy of what the reports rewrite: docs/benchmarks.md and the examples' READMEs."""
    work = tempfile.mkdtemp(prefix="warden-reports-")
    os.makedirs(os.path.join(work, "docs"))
    shutil.copy(os.path.join(source, "docs", "benchmarks.md"), os.path.join(work, "docs"))
    shutil.copytree(os.path.join(source, "examples"), os.path.join(work, "examples"),
                    ignore=lambda d, files: [f for f in files if not f.endswith(".md") and
                                             not os.path.isdir(os.path.join(d, f))])
    return work


def run_report(script, work, arguments):
    done = subprocess.run([sys.executable, os.path.join(HERE, script)] + arguments, cwd=work,
                          capture_output=True, text=True)
    expect(done.returncode == 0, f"{script} exited {done.returncode}: {done.stderr.strip()}")
    return done.stdout


def section(path, name):
    doc = open(path).read()
    m = re.search(rf"<!-- {name}:begin -->\n(.*?)\n<!-- {name}:end -->", doc, re.S)
    expect(m is not None, f"{path}: no {name} section after the report")
    return doc, (m.group(1) if m else "")


def outside(doc, name):
    return re.sub(rf"<!-- {name}:begin -->.*?<!-- {name}:end -->", "", doc, flags=re.S)


# --- launch_cost_report.py -----------------------------------------------------------------------

def launch_rows(names, slow=None):
    """<<<>>> takes 3 us a launch; warden 1.1x that, or 1.5x for the case `slow`; a loop of 100
    launches 4 us a launch one by one, 1 us replayed as a graph."""
    rows = []
    for name in names:
        m = re.fullmatch(r"(\w+)/(cuda|warden)/(\w+)", name)
        if m:
            seconds = 3e-6 * (1.0 if m.group(2) == "cuda" else 1.5 if (m.group(1), m.group(3)) == slow else 1.1)
        elif name == "loop_100/warden_launches":
            seconds = 4e-6
        elif name == "loop_100/warden_graph_replay":
            seconds = 1e-6
        else:
            expect(False, f"launch_cost_gpu_bench: case {name} is not one the report reads")
            continue
        rows += aggregates(name, seconds * 1000, "ns", {"items_per_second": 1.0 / seconds})
    return rows


def check_launch_report(binary, source):
    names = case_names(binary)
    pairs = sorted({(m.group(1), m.group(3)) for m in (re.fullmatch(r"(\w+)/(cuda|warden)/(\w+)", n) for n in names) if m})
    expect(len(pairs) == 8, f"launch_cost_gpu_bench: 4 kernels on 2 streams expected, found {pairs}")
    for kernel, stream in pairs:
        expect(f"{kernel}/cuda/{stream}" in names and f"{kernel}/warden/{stream}" in names,
               f"launch_cost_gpu_bench: {kernel} on {stream} lacks its warden or <<<>>> case")

    for slow in (None, ("eight_buffers", "user_stream")):
        work = workspace(source)
        before = open(os.path.join(work, "docs", "benchmarks.md")).read()
        write_run(os.path.join(work, "launch.json"), launch_rows(names, slow))
        run_report("launch_cost_report.py", work, ["--json", "launch.json", "--device", "Test GPU", "--cuda", "13.0",
                                                   "--command", "launch_cost_gpu_bench --benchmark_repetitions=5"])
        doc, text = section(os.path.join(work, "docs", "benchmarks.md"), "launch-gpu")
        expect(outside(doc, "launch-gpu") == outside(before, "launch-gpu"),
               "launch_cost_report.py changed docs/benchmarks.md outside its section")
        expect("Device: Test GPU; CUDA 13.0" in text, "launch report: no device line")
        for kernel, stream in pairs:
            ratio = "1.50" if (kernel, stream) == slow else "1.10"
            row = f"| {kernel} | {stream.replace('_', ' ')} | 3.00 | {3 * float(ratio):.2f} | {ratio} |"
            expect(row in text, f"launch report: row {row} missing (the median, not the mean, of each case)")
        if slow is None:
            expect("worst warden / `<<<>>>` 1.10" in text and "target <= 1.2: met" in text,
                   "launch report: 1.10x everywhere should meet the 1.2x target")
        else:
            expect("worst warden / `<<<>>>` 1.50 (eight_buffers, user stream; target <= 1.2: missed)" in text,
                   "launch report: the 1.5x case should miss the target, by name")
        expect("4.00 µs per launch launched one by one, 1.00 µs per launch replayed as a graph (4.0x faster)" in text,
               "launch report: the loop against its graph replay")
        shutil.rmtree(work)


# --- tuned_report.py -----------------------------------------------------------------------------

def check_tuned_report(binary, source):
    """Each candidate launched alone takes 10 us times its position in the list; the tuned case
    1.01x the best (block 0), except matmul at its first size, 1.05x: that one is not within 2%."""
    names = [re.sub(r"/iterations:\d+/manual_time$", "", n) for n in case_names(binary)]
    cases = sorted({(n.split("/")[0], int(n.split("/")[2])) for n in names})
    expect(len(cases) >= 9, f"tuned_gpu_bench: 3 kernels at 3 sizes or more expected, found {cases}")
    first_matmul = min(s for k, s in cases if k == "matmul")
    rows = []
    for name in case_names(binary):
        kernel, variant, size = name.split("/")[:3]
        variants = sorted({n.split("/")[1] for n in names if n.startswith(kernel + "/") and n.split("/")[1] != "tuned"},
                          key=lambda v: [n.split("/")[1] for n in names if n.startswith(kernel + "/")].index(v))
        if variant == "tuned":
            seconds = 10e-6 * (1.05 if (kernel, int(size)) == ("matmul", first_matmul) else 1.01)
            extra = {"label": variants[0]}
        else:
            seconds = 10e-6 * (1 + variants.index(variant))
            extra = {}
        rows += aggregates(name, seconds, "us", {}, **extra)
    work = workspace(source)
    before = open(os.path.join(work, "docs", "benchmarks.md")).read()
    write_run(os.path.join(work, "tuned.json"), rows)
    run_report("tuned_report.py", work, ["--json", "tuned.json", "--device", "Test GPU", "--cuda", "13.0",
                                         "--command", "tuned_gpu_bench --benchmark_repetitions=5"])
    doc, text = section(os.path.join(work, "docs", "benchmarks.md"), "tuned")
    expect(outside(doc, "tuned") == outside(before, "tuned"), "tuned_report.py changed docs/benchmarks.md outside its section")
    expect(f"within 2% of the best candidate launched alone in {len(cases) - 1} of {len(cases)} cases" in text,
           "tuned report: the count of cases within 2%")
    expect(f"| matmul | {first_matmul} | block<8, 8> | 10.50 | block<8, 8> | 10.00 | 1.050 | no |" in text,
           "tuned report: the 1.05x row, read from the medians")
    expect("| reduce | 65536 | block<128> | 10.10 | block<128> | 10.00 | 1.010 | yes |" in text,
           "tuned report: a 1.01x row")
    shutil.rmtree(work)


# --- gpu_report.py -------------------------------------------------------------------------------

def examples_rows(names, twin_ratio):
    """Per case: the twin 100 us; warden twin_ratio times that; the library 90 us; the copy roof
    1000 GB/s and each bandwidth case 950 GB/s (0.95 of the copy), matmul 10 TFLOP/s."""
    rows = []
    for name in names:
        m = re.match(r"(\w+)/(\w+)/(\d+)", name)
        expect(m is not None, f"examples_gpu_bench: case {name} is not <example>/<impl>/<size>")
        if not m:
            continue
        example, impl = m.group(1), m.group(2)
        seconds = {"twin": 100e-6, "warden": 100e-6 * twin_ratio, "library": 90e-6, "roof": 50e-6,
                   "padded": 50e-6, "unpadded": 100e-6}.get(impl)
        expect(seconds is not None, f"examples_gpu_bench: implementation {impl} of {name} is not one the report reads")
        if seconds is None:
            continue
        counters = {"GFLOP/s": 10000.0} if example.startswith("matmul") else \
                   {"GB/s": 1000.0 if impl == "roof" else 950.0}
        rows += aggregates(name, seconds, "us", counters, cv=0.02)
    return rows


def check_examples_report(binary, source):
    names = case_names(binary)
    examples = sorted({n.split("/")[0] for n in names} - {"copy", "w050_transpose"})
    expect(len(examples) == 14, f"examples_gpu_bench: 14 examples expected, found {examples}")
    for twin_ratio, verdict in ((1.01, "met"), (1.04, "missed")):
        work = workspace(source)
        write_run(os.path.join(work, "examples.json"), examples_rows(names, twin_ratio))
        run_report("gpu_report.py", work, ["--examples", "examples.json", "--device", "Test GPU", "--cuda", "13.0",
                                           "--command", "scripts/gpu-bench"])
        doc, text = section(os.path.join(work, "docs", "benchmarks.md"), "gpu")
        expect(f"median warden / twin {twin_ratio:.3f} (target <= 1.02: {verdict})" in text,
               f"gpu report: warden at {twin_ratio}x its twin should be '{verdict}' against 1.02")
        expect("0.95 of the copy bandwidth (target >= 0.90: met)" in text, "gpu report: the reduction's bandwidth verdict")
        expect("W050 followed: the 32 x 32 transpose tile padded takes 0.50 x" in text, "gpu report: the W050 verdict")
        for example in examples:
            expect(f"| {example} |" in text, f"gpu report: no row of {example}")
            readme = open(os.path.join(work, "examples", example, "README.md")).read()
            expect(f"**Speed against the twin.** warden / twin median time {twin_ratio:.3f} at" in readme,
                   f"gpu report: examples/{example}/README.md keeps no ratio")
        table = open(os.path.join(work, "examples", "README.md")).read()
        expect("not yet measured" not in table, "gpu report: examples/README.md still says 'not yet measured'")
        expect(f"| {twin_ratio:.3f}-{twin_ratio:.3f} |" in table, "gpu report: examples/README.md's column of ratios")
        shutil.rmtree(work)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--source", required=True, help="the repository root")
    parser.add_argument("--launch-bench")
    parser.add_argument("--examples-bench")
    parser.add_argument("--tuned-bench")
    args = parser.parse_args()
    if args.tuned_bench:
        check_tuned_report(args.tuned_bench, args.source)
    if args.launch_bench:
        check_launch_report(args.launch_bench, args.source)
    if args.examples_bench:
        check_examples_report(args.examples_bench, args.source)
    if failures:
        print(f"{len(failures)} check(s) failed")
        return 1
    print("reports_test: every check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
