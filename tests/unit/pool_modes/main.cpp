// pool_modes_test (issue 31): a translation unit built with WARDEN_POOL_DEBUG=1 and one built with
// WARDEN_POOL_DEBUG=0, linked together. Each mode's pool types, buffers and default pools live in
// an inline namespace of their own (config.hpp, WARDEN_POOL_ABI), so each unit gets a default pool
// of its own layout. Before, both units named one default pool object, of two layouts of
// pool_block, and the linker kept one of each unit's inline functions: the checks below on the pools'
// addresses and on which allocations each pool counts failed.
#include <cstdio>
#include <cstdlib>

#include "pool_modes.hpp"

namespace {

int failures = 0;

void expect(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "pool_modes_test: FAILED: %s\n", what);
    ++failures;
  }
}

pool_mode_report release;

void run_release_unit() { release = release_unit(nullptr); }

}  // namespace

int main() {
  // The release unit runs while the debug unit holds a buffer of its pool.
  const pool_mode_report debug = debug_unit(&run_release_unit);

  std::printf("debug unit:   WARDEN_POOL_DEBUG=%d, sizeof(pool_block) %zu, default pool %p, live %zu/%zu/%zu\n",
              debug.mode, debug.block_size, debug.pool, debug.live_before, debug.live_during, debug.live_after);
  std::printf("release unit: WARDEN_POOL_DEBUG=%d, sizeof(pool_block) %zu, default pool %p, live %zu/%zu/%zu\n",
              release.mode, release.block_size, release.pool, release.live_before, release.live_during,
              release.live_after);

  expect(debug.mode == 1 && release.mode == 0, "the units were built with WARDEN_POOL_DEBUG 1 and 0");
  expect(debug.block_size > release.block_size, "a debug block records more than a release one");
  // Two layouts, so two default pools: one object shared by both would be read with the wrong layout.
  expect(debug.pool != release.pool, "each mode has its own default pool");
  // Each pool counts its own allocations only: the debug unit's buffer is live while the release
  // unit runs, and the release unit's pool does not see it.
  expect(debug.live_before == 0 && debug.live_during == 1 && debug.live_after == 0,
         "the debug pool counts the debug buffer, and it is freed");
  expect(release.live_before == 0 && release.live_during == 1 && release.live_after == 0,
         "the release pool counts the release buffer only, and it is freed");
  expect(debug.requested_during == 1000 * sizeof(float) && debug.requested_after == 0 &&
             release.requested_during == 1000 * sizeof(float) && release.requested_after == 0,
         "each pool's requested bytes are its own buffer's");
  if (failures != 0) return EXIT_FAILURE;
  std::printf("pool_modes_test: passed\n");
  return EXIT_SUCCESS;
}
