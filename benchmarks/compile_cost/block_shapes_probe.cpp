// proposals/0009-runtime-sizes.md: g++ -std=c++20 -fsyntax-only -Iinclude -DSHAPES=N this file, N = 1, 2, 4.
// One tiled body (a block-wide tree reduction through a shared tile of Block elements), checked
// for SHAPES block sizes: what "a block shape chosen among a fixed set at launch" costs at compile time.
#include <warden/warden.hpp>
namespace w = warden;
template <int B>
struct tree {
  static constexpr auto body = [](auto k, auto in, auto out) {
    return w::shared<float, B>(k, [&](auto k, auto tile) {
      auto t = k.thread_id();
      auto g = k.global_id();
      return w::seq(w::when(g < in.size(), tile[t] = in[g]).otherwise(tile[t] = 0.f), w::sync(),
                    w::for_halving(k, B / 2, [&](auto k, auto s) {
                      return w::seq(w::when(t < s, tile[t] += tile[t + s]), w::sync());
                    }),
                    w::when(t == 0, out[k.block_id()] = tile[0]));
    });
  };
  static constexpr auto kernel = w::kernel<w::block<B>, w::in<float>, w::out<float>>(body);
};
template struct tree<256>;
#if SHAPES >= 2
template struct tree<128>;
#endif
#if SHAPES >= 3
template struct tree<512>;
#endif
#if SHAPES >= 4
template struct tree<1024>;
#endif
int main() { return tree<256>::kernel.threads == 256 ? 0 : 1; }
