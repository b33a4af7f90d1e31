// W051 [uncoalesced]: in[i * 32] puts a warp's lanes 128 bytes apart: 32 sectors of 32 bytes for
// 128 bytes that 4 would hold. The twin reads in[i]: 4 sectors.
#include <warden/warden.hpp>

namespace w = warden;

#ifdef WARDEN_DEFECT
inline constexpr int stride = 32;
#else
inline constexpr int stride = 1;
#endif

WARDEN_KERNEL(gather, w::kernel<w::block<256>, w::in<float>, w::out<float>>([](auto k, auto in, auto out) {
  auto i = k.global_id();
  return w::when(i * stride < in.size() && i < out.size(), out[i] = in[i * stride]);
}));

int main() { return gather.describe().accesses.size() == 2 ? 0 : 1; }
