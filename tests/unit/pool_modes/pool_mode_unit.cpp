// Compiled twice: with WARDEN_POOL_DEBUG=1 as debug_unit and with WARDEN_POOL_DEBUG=0 as
// release_unit (POOL_MODE_UNIT names the function), then linked into one program.
#include <warden/memory/buffer.hpp>
#include <warden/memory/default_pool.hpp>

#include "pool_modes.hpp"

pool_mode_report POOL_MODE_UNIT(void (*while_holding)()) {
  pool_mode_report r;
  r.mode = WARDEN_POOL_DEBUG;
  r.block_size = sizeof(warden::detail::pool_block);
  r.pool = &warden::default_pool();
  r.live_before = warden::memory_stats().live_allocations;
  {
    warden::device_buffer<float> b(1000);
    const warden::pool_stats during = warden::memory_stats();
    r.live_during = during.live_allocations;
    r.requested_during = during.requested_bytes;
    if (while_holding != nullptr) while_holding();
  }
  const warden::pool_stats after = warden::memory_stats();
  r.live_after = after.live_allocations;
  r.requested_after = after.requested_bytes;
  return r;
}
