#pragma once
// A kernel's fingerprint: a 64-bit hash (FNV-1a) of everything the checker reads of it — its block,
// its parameters' kinds and element types, and its description (kernel_ir), field by field. Two
// kernels with one fingerprint get one verdict and one set of launch obligations, because the
// checker is a function of exactly these. A file the host precheck checked is compiled by nvcc
// against the precheck's table of fingerprints (dsl/checked_table.hpp, proposals/0008, "Check
// once per file"): a phase whose kernel is not in the table, a body that differs under
// __CUDA_ARCH__ or a table older than the file, does not compile (W006).
#include <cstddef>
#include <type_traits>
#include <utility>

#include "ir.hpp"
#include "program.hpp"

namespace warden::dsl {

struct fingerprint_hash {
  unsigned long long value = 0xcbf29ce484222325ull;
  // An integer, enumerator or bool, as the 8 bytes of its value.
  template <class T>
    requires(std::is_integral_v<T> || std::is_enum_v<T>)
  constexpr void add(T v) {
    const auto u = static_cast<unsigned long long>(static_cast<long long>(v));
    for (int byte = 0; byte < 8; ++byte) {
      value ^= (u >> (8 * byte)) & 0xffu;
      value *= 0x100000001b3ull;
    }
  }
  template <class V, class Each>
  constexpr void add_all(const std::vector<V>& items, Each each) {
    add(static_cast<long long>(items.size()));
    for (const V& item : items) each(*this, item);
  }
};

// A field added to one of these records must be added to its hash below, or two kernels that the
// checker tells apart could share a fingerprint: the sizes are the tripwire (x86-64 and aarch64,
// the host ABIs nvcc compiles for).
static_assert(sizeof(ir_expr) == 40 && sizeof(ir_access) == 72 && sizeof(ir_guard) == 8 && sizeof(ir_loop) == 28 &&
                  sizeof(ir_tile) == 20 && sizeof(ir_sync) == 28 && sizeof(ir_shuffle) == 28 && sizeof(ir_local) == 28,
              "a field of dsl/ir.hpp's records changed: hash it in dsl/fingerprint.hpp, then update these sizes");

constexpr void hash_description(fingerprint_hash& h, const kernel_ir& ir) {
  h.add_all(ir.exprs, [](fingerprint_hash& h, const ir_expr& e) {
    h.add(e.op), h.add(e.a), h.add(e.b), h.add(e.value), h.add(e.is_float), h.add(e.is_unsigned);
    h.add(e.unsigned_bits), h.add(e.narrow_bits), h.add(e.signed_bits), h.add(e.held);
  });
  // origin is left out: a run-time pointer, nullptr in every constant evaluation.
  h.add_all(ir.accesses, [](fingerprint_hash& h, const ir_access& a) {
    h.add(a.kind), h.add(a.memory), h.add(a.target), h.add(a.index), h.add(a.column), h.add(a.guard_begin);
    h.add(a.guard_end), h.add(a.loop_begin), h.add(a.loop_end), h.add(a.phase), h.add(a.position), h.add(a.trusted);
    h.add(a.vector_bytes), h.add(a.element_bytes), h.add(a.lint_off), h.add(a.permuted_by), h.add(a.value);
    h.add(a.narrowing);
  });
  h.add_all(ir.guard_pool, [](fingerprint_hash& h, const ir_guard& g) { h.add(g.condition), h.add(g.negated); });
  h.add_all(ir.loop_pool, [](fingerprint_hash& h, int loop) { h.add(loop); });
  h.add_all(ir.loops, [](fingerprint_hash& h, const ir_loop& l) {
    h.add(l.level), h.add(l.lo), h.add(l.hi), h.add(l.step), h.add(l.grid_stride), h.add(l.has_barrier);
    h.add(l.guard_begin), h.add(l.guard_end);
  });
  h.add_all(ir.tiles, [](fingerprint_hash& h, const ir_tile& t) {
    h.add(t.level), h.add(t.rows), h.add(t.cols), h.add(t.pad), h.add(t.element_bytes);
  });
  h.add_all(ir.syncs, [](fingerprint_hash& h, const ir_sync& s) {
    h.add(s.guard_begin), h.add(s.guard_end), h.add(s.loop_begin), h.add(s.loop_end), h.add(s.phase);
    h.add(s.position), h.add(s.trusted);
  });
  h.add_all(ir.shuffles, [](fingerprint_hash& h, const ir_shuffle& s) {
    h.add(s.kind), h.add(s.lane), h.add(s.guard_begin), h.add(s.guard_end), h.add(s.loop_begin), h.add(s.loop_end);
    h.add(s.trusted);
  });
  h.add_all(ir.locals, [](fingerprint_hash& h, const ir_local& l) {
    h.add(l.level), h.add(l.init), h.add(l.loop_begin), h.add(l.loop_end), h.add(l.assigned), h.add(l.value);
    h.add(l.is_unsigned), h.add(l.bits);
  });
  h.add_all(ir.stated, [](fingerprint_hash& h, int fact) { h.add(fact); });
  h.add(ir.reopened_level), h.add(ir.reopened_inner), h.add(ir.reopened_outer), h.add(ir.phase), h.add(ir.position);
}

// The kind and element type of one parameter: its kind's name, and its element's size, class
// (floating, signed, unsigned, bool) and alignment.
template <class Param>
constexpr void hash_parameter(fingerprint_hash& h) {
  for (char c : Param::kind) h.add(static_cast<long long>(c));
  using T = typename Param::value_type;
  h.add(static_cast<long long>(sizeof(T))), h.add(static_cast<long long>(alignof(T)));
  h.add(std::is_floating_point_v<T>), h.add(std::is_signed_v<T>), h.add(std::is_same_v<T, bool>);
}

template <class Block, class Program, class... Params>
constexpr long long fingerprint_of(const kernel_definition<Block, Program, Params...>& definition) {
  fingerprint_hash h;
  h.add(static_cast<long long>(Block::x)), h.add(static_cast<long long>(Block::y)), h.add(static_cast<long long>(Block::z));
  h.add(static_cast<long long>(sizeof...(Params)));
  (hash_parameter<Params>(h), ...);
  hash_description(h, definition.describe());
  return static_cast<long long>(h.value);
}

// The fingerprint of a body's kernel (w::kernel<Block, Params...>(F{})), built without the checker.
template <class Block, class F, class... Params>
inline constexpr long long fingerprint_of_body = fingerprint_of(build_kernel<Block, Params...>(F{}));

}  // namespace warden::dsl
