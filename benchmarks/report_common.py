"""What the report scripts share: running a compile-time benchmark for its fastest repetitions,
and writing a generated section between its markers in a Markdown file."""
import datetime
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


def add_run_arguments(parser):
    """The arguments every GPU report takes: where the run was made and the doc it writes into."""
    parser.add_argument("--device", required=True)
    parser.add_argument("--cuda", required=True)
    parser.add_argument("--command", action="append", default=[])
    parser.add_argument("--doc", default="docs/benchmarks.md")


def run_header(device, cuda, commands):
    """The lines that open a GPU report's section: the device, the date and the commands run."""
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    return [f"Device: {device}; CUDA {cuda}; measured {when}.", "", "Commands:", ""] + [f"- `{c}`" for c in commands]
