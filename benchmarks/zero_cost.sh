#!/usr/bin/env bash
# Zero cost, checked without a GPU: compiles each example's warden kernel and its hand-written
# twin with nvcc for sm_90 and compares
#   * PTX instructions in the kernel's body (nvcc -ptx),
#   * registers, shared memory and stack (nvcc --resource-usage),
#   * SASS instructions (cuobjdump -sass), where cuobjdump is installed.
# Fails when a warden kernel needs more than 5% more instructions or registers than its twin.
# Usage: benchmarks/zero_cost.sh [nvcc]        (prints a Markdown table)
set -euo pipefail
cd "$(dirname "$0")/.."
nvcc=${1:-${CUDACXX:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}}
flags=(-std=c++20 --expt-relaxed-constexpr --extended-lambda -arch=sm_90 -O3 -Iinclude)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# PTX instructions inside the .entry bodies of a .ptx file (directives, labels and braces excluded).
ptx_instructions() {
  awk '/^\.(visible )?\.entry/ { body = 1 } body && /^\t[a-z@]/ && !/^\t\/\// { n++ } END { print n + 0 }' "$1"
}
# "registers shared-bytes stack-bytes" of the first kernel function in --resource-usage output.
resources() {
  grep -E 'Function properties|Used [0-9]+ registers' "$1" | grep -m1 -oE 'Used [0-9]+ registers.*' |
    awk '{ regs = $2; smem = 0; for (i = 1; i <= NF; i++) if ($i ~ /smem/) smem = $(i - 2) + 0; print regs, smem }'
}
sass_instructions() {
  cuobjdump -sass "$1" | grep -cE '^\s+/\*[0-9a-f]{4}\*/' || true
}

status=0
echo "| example | PTX warden | PTX twin | ratio | registers warden / twin | shared bytes warden / twin | SASS warden / twin |"
echo "|---|---|---|---|---|---|---|"
for pair in "saxpy:benchmarks/zero_cost/saxpy_warden.cu:examples/saxpy/saxpy_twin.cu" \
            "reverse_block:benchmarks/zero_cost/reverse_block_warden.cu:examples/reverse_block/reverse_block_twin.cu"; do
  IFS=: read -r name warden twin <<<"$pair"
  for side in warden twin; do
    source=${!side}
    "$nvcc" "${flags[@]}" -ptx "$source" -o "$work/$name.$side.ptx"
    "$nvcc" "${flags[@]}" --resource-usage -c "$source" -o "$work/$name.$side.o" >"$work/$name.$side.res" 2>&1
  done
  pw=$(ptx_instructions "$work/$name.warden.ptx")
  pt=$(ptx_instructions "$work/$name.twin.ptx")
  read -r rw sw <<<"$(resources "$work/$name.warden.res")"
  read -r rt st <<<"$(resources "$work/$name.twin.res")"
  sass="not measured (no cuobjdump)"
  if command -v cuobjdump >/dev/null; then
    sass="$(sass_instructions "$work/$name.warden.o") / $(sass_instructions "$work/$name.twin.o")"
  fi
  ratio=$(awk -v a="$pw" -v b="$pt" 'BEGIN { printf "%.3f", a / b }')
  echo "| $name | $pw | $pt | $ratio | $rw / $rt | $sw / $st | $sass |"
  if awk -v a="$pw" -v b="$pt" -v ra="$rw" -v rb="$rt" 'BEGIN { exit !(a > 1.05 * b || ra > 1.05 * rb) }'; then
    echo "zero_cost: $name: warden needs more than 5% over its twin" >&2
    status=1
  fi
done
exit $status
