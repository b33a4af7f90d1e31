#pragma once
// HeCBench matrix-rotate's kernel rotate_matrix_parallel as tests/corpus2/hecbench_matrix_rotate.cpp
// ports it (the port's notes are there); shared with benchmarks/launch_decision_bench.cpp.
#include <warden/warden.hpp>

namespace corpus2 {
namespace w = warden;

constexpr auto rotate_matrix_parallel = [](auto k, auto matrix, auto n) {
  auto layer = k.block_id() * k.block_dim() + k.thread_id();
  auto first = layer;
  auto last = n - 1 - layer;
  return w::when(layer < n / 2, w::for_range(k, first, last, [&](auto k, auto i) {
                   auto offset = i - first;
                   return w::local(k, matrix[first * n + i], [&](auto, auto top) {  // save top
                     return w::seq(matrix[first * n + i] = matrix[(last - offset) * n + first],            // left -> top
                                   matrix[(last - offset) * n + first] = matrix[last * n + (last - offset)],  // bottom -> left
                                   matrix[last * n + (last - offset)] = matrix[i * n + last],              // right -> bottom
                                   matrix[i * n + last] = top);                                           // top -> right
                   });
                 }));
};

}  // namespace corpus2
