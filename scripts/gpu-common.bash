# Sourced by scripts/gpu-check and scripts/gpu-bench (not run by itself): the GPU probe, bundle
# mode (binaries from gpu-bundle/, written by scripts/gpu-bundle, instead of a build here) and timing.
# The caller sets `script` (its name, for messages) and runs from the repository root.

gpu_present() { command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; }

# Seconds since the epoch, with fractions; elapsed since a start taken with it.
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# Prints a command as it would be typed (for --dry-run and for the log of what ran).
show() { printf '%q ' "$@" | sed 's/ $//'; echo; }

# bundle_setup DIR ROLE...: checks the bundle, sets `bundle` (its absolute path), LD_LIBRARY_PATH
# (the bundle's lib/ first, then CUDA's, for the libraries expected there) and `bundle_roles` /
# `bundle_paths` (the manifest, paths made absolute). Returns 1, saying why, when a binary is
# missing or when one of the given roles does not resolve its libraries (gpu-check does not need
# examples_gpu_bench's cuBLAS).
bundle_setup() {
  if [ ! -f "$1/manifest.txt" ]; then
    echo "$script: $1/manifest.txt not found (scripts/gpu-bundle writes the bundle)" >&2
    return 1
  fi
  bundle=$(cd "$1" && pwd)
  shift
  local cuda_libs="" dir
  for dir in /usr/local/cuda/lib64 /usr/local/cuda/lib /usr/local/cuda/targets/x86_64-linux/lib; do
    [ -d "$dir" ] && cuda_libs="$cuda_libs:$dir"
  done
  export LD_LIBRARY_PATH="$bundle/lib$cuda_libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  bundle_roles=()
  bundle_paths=()
  local role path bad=0
  while read -r role path; do
    case "$role" in '' | '#'*) continue ;; esac
    if [ ! -x "$bundle/$path" ]; then
      echo "$script: bundle: $path (role $role) is missing or not executable" >&2
      bad=1
      continue
    fi
    bundle_roles+=("$role")
    bundle_paths+=("$bundle/$path")
  done <"$bundle/manifest.txt"
  if command -v ldd >/dev/null; then
    local checked
    mapfile -t checked < <(bundle_binaries "$@")
    for path in "${checked[@]}"; do
      if ldd "$path" 2>&1 | grep -qE "not found|version .* not found"; then
        echo "$script: bundle: $(basename "$path") does not resolve its libraries here:" >&2
        ldd "$path" 2>&1 | grep -E "not found" >&2
        bad=1
      fi
    done
  else
    echo "$script: no ldd here; the bundle's libraries were not checked" >&2
  fi
  [ -f "$bundle/info.txt" ] && sed "s/^/$script: bundle: /" "$bundle/info.txt"
  echo "$script: bundle: ${#bundle_paths[@]} binaries from $bundle; LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
  return $bad
}

# bundle_binaries ROLE...: the bundle's binaries of those roles, one per line, in manifest order.
bundle_binaries() {
  local i role
  for i in "${!bundle_paths[@]}"; do
    for role in "$@"; do
      [ "${bundle_roles[$i]}" = "$role" ] && echo "${bundle_paths[$i]}"
    done
  done
  return 0
}

# bundle_binary NAME: the path of one bundled binary, or nothing.
bundle_binary() {
  local path
  for path in "${bundle_paths[@]}"; do
    [ "$(basename "$path")" = "$1" ] && echo "$path" && return 0
  done
  return 1
}
