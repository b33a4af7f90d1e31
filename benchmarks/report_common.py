"""What the report scripts share: running a compile-time benchmark for its fastest repetitions,
and writing a generated section between its markers in a Markdown file."""
import json
import subprocess
import sys


def fastest_times(command, what):
    """Runs a Google Benchmark binary (command: argv, JSON output requested here) whose benchmarks
    compute a "min" statistic; returns {run_name: seconds} of those minima."""
    out = subprocess.run(command + ["--benchmark_format=json"], check=True, capture_output=True, text=True).stdout
    times = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("aggregate_name") != "min":
            continue
        if b.get("error_occurred"):
            sys.exit(f"{what}: {b['run_name']}: {b.get('error_message')}")
        times[b["run_name"]] = b["real_time"] / 1e3  # ms -> s
    return times


def write_section(path, name, text):
    """Replaces what lies between <!-- name:begin --> and <!-- name:end --> in the file."""
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    doc = open(path).read()
    head, rest = doc.split(begin, 1)
    open(path, "w").write(head + begin + "\n" + text + "\n" + end + rest.split(end, 1)[1])
