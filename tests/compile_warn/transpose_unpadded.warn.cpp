// W050 [bank-conflict]: a 32 x 32 block transposes through a 32 x 32 tile. The column read
// tile(tx, ty) puts a warp's 32 lanes 32 words apart, all in one bank: 32 ways. The twin pads the
// rows to 33 words (w::shared<float, 32, 32, 1>): every lane in its own bank.
#include <warden/warden.hpp>

namespace w = warden;

#ifdef WARDEN_DEFECT
inline constexpr int pad = 0;
#else
inline constexpr int pad = 1;
#endif

WARDEN_KERNEL(transpose, w::kernel<w::block<32, 32>, w::in<float>, w::out<float>, w::value<int>, w::value<int>>(
    [](auto k, auto in, auto out, auto rows, auto cols) {
      return w::shared<float, 32, 32, pad>(k, [&](auto k, auto tile) {
        auto tx = k.thread_id();
        auto ty = k.thread_id_y();
        auto x = k.block_id() * 32 + tx;
        auto y = k.block_id_y() * 32 + ty;
        auto ox = k.block_id_y() * 32 + tx;
        auto oy = k.block_id() * 32 + ty;
        return w::seq(w::when(y < rows && x < cols, tile(ty, tx) = in[y * cols + x]),
                      w::sync(),
                      w::when(oy < cols && ox < rows, out[oy * rows + ox] = tile(tx, ty)));
      });
    }));

int main() { return transpose.describe().accesses.size() == 4 ? 0 : 1; }
