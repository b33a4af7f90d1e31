#pragma once
// What one translation unit of pool_modes_test sees of its default pool (issue 31: no ODR hazard).
// Nothing here names a warden type, so both units and main agree on it whatever their mode.

#include <cstddef>

struct pool_mode_report {
  int mode = -1;                 // WARDEN_POOL_DEBUG as the unit saw it
  std::size_t block_size = 0;    // sizeof(warden::detail::pool_block) in the unit
  const void* pool = nullptr;    // &warden::default_pool(), as the unit finds it
  std::size_t live_before = 0, live_during = 0, live_after = 0;
  std::size_t requested_during = 0, requested_after = 0;
};

// Each unit allocates a buffer from its default pool, reads memory_stats() before, while holding it
// and after freeing it, and calls `while_holding` (if any) while it holds the buffer.
pool_mode_report debug_unit(void (*while_holding)());
pool_mode_report release_unit(void (*while_holding)());
