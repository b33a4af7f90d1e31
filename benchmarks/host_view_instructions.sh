#!/usr/bin/env bash
# Zero cost of host views, counted rather than timed: compiles host_view_bench.cpp with -O3 and
# prints how many machine instructions saxpy takes over raw pointers and over typed views, and
# their ratio. The element_ref proxies leave nothing behind: the loops are the same instructions,
# and what differs is a few register moves where the arguments arrive. Usage: benchmarks/host_view_instructions.sh [c++]
set -euo pipefail
cd "$(dirname "$0")/.."
cxx=${1:-g++}
object=$(mktemp --suffix=.o)
trap 'rm -f "$object"' EXIT
"$cxx" -std=c++20 -O3 -Iinclude -c benchmarks/host_view_bench.cpp -o "$object"
objdump -d --no-show-raw-insn -C "$object" | awk '
  /^[0-9a-f]+ <.*>:$/ { name = ""; if ($0 ~ /::saxpy_raw\(/) name = "saxpy_raw"; if ($0 ~ /::saxpy_views\(/) name = "saxpy_views" }
  /^ / && name != "" { count[name]++ }
  END { if (count["saxpy_raw"] == 0) exit 1
        printf "%s -O3: saxpy_raw %d instructions, saxpy_views %d instructions, ratio %.3f\n", "'"$cxx"'",
               count["saxpy_raw"], count["saxpy_views"], count["saxpy_views"] / count["saxpy_raw"] }'
