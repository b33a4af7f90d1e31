#!/usr/bin/env bash
# Zero cost, checked without a GPU: compiles each example's warden program (examples/*/*_cuda.cu,
# whose only kernel is the warden kernel's CUDA entry) and its hand-written twin
# (examples/*/*_twin.cu) with nvcc for sm_90 and compares
#   * PTX instructions in the kernel's body (nvcc -ptx),
#   * registers and shared memory (ptxas -v on that PTX, as nvcc -c would run it),
#   * SASS instructions (cuobjdump -sass on ptxas's cubin), where cuobjdump is installed.
# Each side is compiled once, and only through nvcc's device pass: the host pass (cudafe++, then
# g++ on the whole program) changes no instruction of the kernel and cost three times as much.
# Fails when a warden kernel needs more than 5% more instructions or registers than its twin, or,
# for the known gaps listed in benchmarks/zero_cost_gaps.txt, more than the ceiling recorded there.
# Usage: benchmarks/zero_cost.sh [nvcc]        (prints a Markdown table)
#        ZC_ONLY="saxpy matmul_fast" benchmarks/zero_cost.sh   (those examples only)
#        benchmarks/zero_cost.sh --from-build build/default [nvcc]
#            reads the PTX and cubin the build kept (examples/<name>/<name>_{cuda,twin}.keep/,
#            cmake/warden_testing.cmake) instead of compiling; an example whose kept files are
#            missing is compiled as above. The build's device code is the same: nvcc's -O and
#            NDEBUG change host code only, and the kernels assert nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
from_build=""
if [ "${1:-}" = "--from-build" ]; then
  from_build=$2
  shift 2
fi
nvcc=${1:-${CUDACXX:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}}
flags=(-std=c++20 --expt-relaxed-constexpr --extended-lambda -arch=sm_90 -O3 -Iinclude
       -Xcudafe=--max_cost_constexpr_call=2000000000 -Xcompiler=-fconstexpr-ops-limit=4294967295)
ptxas=$(dirname "$nvcc")/ptxas
[ -x "$ptxas" ] || ptxas=$(command -v ptxas)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# PTX instructions inside the .entry bodies of a .ptx file (directives, labels and braces excluded).
# Not counted: warden's launch-time measuring kernels (contents_*_pass, launch/contents_on_device.hpp),
# which measure a stated fact's buffer before the launch and are no part of the kernel's lowering.
ptx_instructions() {
  awk '/^\.(visible )?\.entry/ { body = ($0 !~ /contents_[a-z]+_pass/) } body && /^\t[a-z@]/ && !/^\t\/\// { n++ } END { print n + 0 }' "$1"
}
# "registers shared-bytes" of the kernels in --resource-usage output (the measuring kernels' left out).
# The most over the file's kernels (scan_fast has two, which nvcc may list in either order).
resources() {
  grep -oE "(Function properties for|Compiling entry function|Used [0-9]+ registers).*" "$1" |
    awk '/^(Function properties for|Compiling entry function)/ { skip = ($0 ~ /contents_[a-z]+_pass/); next }
         !skip { if ($2 > regs) regs = $2; for (i = 1; i <= NF; i++) if ($i ~ /smem/ && $(i - 2) + 0 > smem) smem = $(i - 2) + 0 }
         END { print regs + 0, smem + 0 }'
}
sass_instructions() {
  cuobjdump -sass "$1" | grep -cE '^\s+/\*[0-9a-f]{4}\*/' || true
}

status=0
read_kept=0
echo "| example | PTX warden | PTX twin | ratio | registers warden / twin | shared bytes warden / twin | SASS warden / twin |"
echo "|---|---|---|---|---|---|---|"
for name in ${ZC_ONLY:-saxpy reverse_block reduction transpose matmul stencil_2d histogram blelloch_scan softmax bitonic_sort histogram_fast reduction_fast matmul_fast scan_fast}; do
  pair="$name:examples/$name/${name}_cuda.cu:examples/$name/${name}_twin.cu"
  IFS=: read -r name warden twin <<<"$pair"
  for side in warden twin; do
    source=${!side}
    target=$(basename "$source" .cu)
    kept="$from_build/examples/$name/$target.keep"
    if [ -n "$from_build" ] && [ -f "$kept/$target.ptx" ] && [ -f "$kept/$target.sm_90.cubin" ]; then
      cp "$kept/$target.ptx" "$work/$name.$side.ptx"
      cp "$kept/$target.sm_90.cubin" "$work/$name.$side.cubin"
      read_kept=$((read_kept + 1))
      "$ptxas" -arch=sm_90 -O3 -v "$work/$name.$side.ptx" -o /dev/null >"$work/$name.$side.res" 2>&1
    else
      "$nvcc" "${flags[@]}" -ptx "$source" -o "$work/$name.$side.ptx"
      "$ptxas" -arch=sm_90 -O3 -v "$work/$name.$side.ptx" -o "$work/$name.$side.cubin" >"$work/$name.$side.res" 2>&1
    fi
  done
  pw=$(ptx_instructions "$work/$name.warden.ptx")
  pt=$(ptx_instructions "$work/$name.twin.ptx")
  read -r rw sw <<<"$(resources "$work/$name.warden.res")"
  read -r rt st <<<"$(resources "$work/$name.twin.res")"
  sass="not measured (no cuobjdump)"
  if command -v cuobjdump >/dev/null; then
    sass="$(sass_instructions "$work/$name.warden.cubin") / $(sass_instructions "$work/$name.twin.cubin")"
  fi
  ratio=$(awk -v a="$pw" -v b="$pt" 'BEGIN { printf "%.3f", a / b }')
  echo "| $name | $pw | $pt | $ratio | $rw / $rt | $sw / $st | $sass |"
  ceiling=$(awk -v n="$name" '$1 == n { print $2 }' benchmarks/zero_cost_gaps.txt)
  ceiling=${ceiling:-1.05}
  # A gap may carry a register ceiling too, as its third field `registers=R`.
  reg_ceiling=$(awk -v n="$name" '$1 == n && $3 ~ /^registers=/ { sub(/^registers=/, "", $3); print $3 }' benchmarks/zero_cost_gaps.txt)
  reg_ceiling=${reg_ceiling:-1.05}
  if awk -v a="$pw" -v b="$pt" -v ra="$rw" -v rb="$rt" -v c="$ceiling" -v rc="$reg_ceiling" 'BEGIN { exit !(a > c * b || ra > rc * rb) }'; then
    echo "zero_cost: $name: warden needs more than ${ceiling}x its twin's instructions (or ${reg_ceiling}x its registers)" >&2
    status=1
  fi
done
[ -z "$from_build" ] || echo "zero_cost: $read_kept of the compiled sides read from the build's kept files ($from_build), the others compiled here"
exit $status
