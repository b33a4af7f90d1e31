#pragma once
// The kernel context `k` handed to a kernel's body and to every scope's body: this thread's
// indices. Its type carries the nesting level, which names the scope's variable.
#include "expr.hpp"
#include "stmt.hpp"

namespace warden::dsl {

// The kernel context handed to the body and to every scope's body: indices of this thread.
template <class Block, int Level>
struct kernel_context {
  using block_type = Block;
  static constexpr int level = Level;
  constexpr auto thread_id() const { return index_e<ir_op::thread_id, 0>{}; }
  constexpr auto thread_id_y() const { return index_e<ir_op::thread_id, 1>{}; }
  constexpr auto thread_id_z() const { return index_e<ir_op::thread_id, 2>{}; }
  constexpr auto block_id() const { return index_e<ir_op::block_id, 0>{}; }
  constexpr auto block_id_y() const { return index_e<ir_op::block_id, 1>{}; }
  constexpr auto block_id_z() const { return index_e<ir_op::block_id, 2>{}; }
  constexpr auto global_id() const { return index_e<ir_op::global_id, 0>{}; }
  constexpr auto global_id_y() const { return index_e<ir_op::global_id, 1>{}; }
  constexpr auto global_id_z() const { return index_e<ir_op::global_id, 2>{}; }
  constexpr auto block_dim() const { return index_e<ir_op::block_dim, 0>{}; }
  constexpr auto block_dim_y() const { return index_e<ir_op::block_dim, 1>{}; }
  constexpr auto grid_dim() const { return index_e<ir_op::grid_dim, 0>{}; }
  constexpr auto grid_dim_y() const { return index_e<ir_op::grid_dim, 1>{}; }
};

template <class S>
constexpr auto to_statement(S s) {
  static_assert(statement<S>,
                "warden::kernel: a kernel body (or a scope's body) must return a statement: an assignment, "
                "when(...), seq(...), a loop, sync() or an atomic");
  return s;
}

// type_probe and value_type_of: dsl/expr.hpp.

}  // namespace warden::dsl
