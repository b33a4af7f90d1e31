#pragma once
// A launch's arguments, bound once (bind_and_check): the slots the kernel receives, what the launch-time
// checks read (check::bound_argument: E100, E101 and the facts of the others) and each buffer's
// stream ordering (memory/buffer_ordering.hpp), all by parameter position. Both backends, the
// checks and a graph's capture read this one binding instead of walking the arguments again.

#include <array>
#include <cstddef>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "../access.hpp"
#include "../backend/slots.hpp"
#include "../check/launch/contents_read.hpp"
#include "../check/launch/launch_checks.hpp"
#include "../detail/pack.hpp"
#include "../dsl/program.hpp"
#include "../error.hpp"
#include "../graph/recorder.hpp"
#include "../memory/buffer_ordering.hpp"
#include "../memory/capture_registry.hpp"
#include "../stream.hpp"
#include "arguments.hpp"
#include "check_cache.hpp"
#include "contents.hpp"

namespace warden::detail {

// Whether a buffer argument can only be read: a const buffer, or a view of one.
template <class Arg>
inline constexpr bool read_only_argument = [] {
  using A = std::remove_cvref_t<Arg>;
  if constexpr (requires { A::read_only; }) return A::read_only;
  else return std::is_const_v<std::remove_reference_t<Arg>>;
}();

// One argument, bound to parameter position I of kind Param.
template <class Param, class Arg>
auto bind_slot(Arg& arg) {
  using A = std::remove_cvref_t<Arg>;
  if constexpr (Param::is_buffer) {
    if constexpr (is_buffer<A>::value) {
      using T = typename Param::value_type;
      static_assert(std::is_same_v<typename A::value_type, T>,
                    "warden::launch: the buffer's element type differs from the parameter's");
      if constexpr (!std::is_same_v<typename Param::mode, access::read>)
        static_assert(!read_only_argument<Arg>,
                      "warden::launch: a writable parameter (out, inout, atomic) needs a non-const buffer (or a view of one)");
      if (arg.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
        throw bounds_error("warden::launch", "a buffer of " + std::to_string(arg.size()) +
                                                 " elements is larger than warden's int indices allow");
      if constexpr (std::is_same_v<typename Param::mode, access::read>)
        return backend::slot<Param>{std::as_const(arg).data(), static_cast<int>(arg.size())};  // not a write
      else
        return backend::slot<Param>{arg.data(issued_write{}), static_cast<int>(arg.size())};
    }
  } else {
    static_assert(std::is_convertible_v<A, typename Param::value_type>,
                  "warden::launch: a value<T> parameter takes a value convertible to T");
    return backend::slot<Param>{static_cast<typename Param::value_type>(arg)};
  }
}

// The kernel's value-level description. A named_kernel's program is a compile-time constant, so
// it is described once per program run; a bare kernel_definition (whose constants may differ between
// objects of one type) is described at each launch, into `scratch`.
template <class K>
const dsl::kernel_ir& description_of(const K& any_kernel, dsl::kernel_ir& scratch) {
  if constexpr (requires { typename K::holder; }) {
    static const dsl::kernel_ir once = K::holder::definition.describe();
    return once;
  } else {
    scratch = any_kernel.describe();
    return scratch;
  }
}

// The launch's arguments, bound once: the slots the kernel receives, what the launch-time checks
// read (E100, E101 and the facts of the others) and what stream ordering reads, by position.
template <class Slots, std::size_t N>
struct bound_launch {
  Slots slots;
  std::array<check::bound_argument, N> checked;
  std::array<ordered_buffer, N> buffers;

  // Orders work issued to `s` after earlier uses of the buffers (before), or records it as their
  // latest use (after).
  void order(stream_ref s, bool after) const {
    for (std::size_t i = 0; i < N; ++i) {
      const ordered_buffer& b = buffers[i];
      if (b.buffer == nullptr) continue;
      if (!after) b.order_before(s, checked[i].writable);
      else b.record_use(s, checked[i].writable);
    }
  }
  // Hands the buffers' uses to a graph being captured, which orders and records them at each
  // replay (graph/recorder.hpp).
  void capture_into(graph_recorder& capture, std::string_view kernel, std::span<const std::string_view> names) const {
    const int launch = capture.begin_launch();
    for (std::size_t i = 0; i < N; ++i) {
      const ordered_buffer& b = buffers[i];
      if (b.buffer == nullptr) continue;
      const std::string param = i < names.size() && !names[i].empty() ? std::string(names[i]) : "p" + std::to_string(i);
      const std::string at = "launch " + std::to_string(launch) + " of the capture";
      // E109 names the buffer as the program does (captured_use::described), read only then.
      captured_use use{b.link(), checked[i].writable,
                       "the buffer bound to " + param + " of " + std::string(kernel) + " (" + at + ")",
                       "bound to " + param + " of " + std::string(kernel) + " in " + at};
      b.made_where(use.made_at, use.moved_at);
      capture.use(std::move(use));
    }
  }
  // Blocks the host until the buffers' earlier uses are done (the cpu backend runs on the host).
  void wait_for_host() const {
    for (std::size_t i = 0; i < N; ++i)
      if (buffers[i].buffer != nullptr) buffers[i].wait_for_host(checked[i].writable);
  }
};

// The contents of a buffer argument that the kernel's indices read (`measure`:
// check::contents_wanted bits), measured into what the checks read of it (launch/contents.hpp):
// a read-only buffer's hold for the whole run; a writable one's are where its range starts, which
// the checks widen by what the kernel stores (check/launch/written_ranges.hpp). `order`: the rows
// and bound of the order a stated fact asks (check::stated_orders).
template <class Param, class Arg>
void measure_argument(Arg& arg, check::bound_argument& checked, char measure, const contents_order& order) {
  if constexpr (Param::is_buffer && std::is_integral_v<typename Param::value_type> && !std::is_same_v<typename Param::value_type, bool>) {
    if constexpr (!requires { arg.whole(); })  // not a view
      if (measure != 0) {
        checked.contents = contents_of(std::as_const(arg), (measure & check::contents_distinct_wanted) != 0,
                                       (measure & check::contents_order_wanted) != 0 ? order : contents_order{});
        // The kernel about to run writes it, and its write was counted before this measurement
        // (describe_argument): a measurement kept would be taken for the contents after the kernel.
        if constexpr (!std::is_same_v<typename Param::mode, access::read> && requires { arg.contents_memo(); })
          arg.contents_memo().valid = false;
      }
  }
}

// What the launch fixes before it measures anything: geometry, sizes and integral values, from
// which the orders' row lengths and bounds are computed (launch-uniform, dsl::launch_uniform).
template <std::size_t N>
check::launch_facts launch_numbers_of(const std::array<check::bound_argument, N>& arguments, dims3 block, dims3 grid) {
  check::launch_facts facts;
  facts.block = block;
  facts.grid = grid;
  facts.values.resize(N);
  facts.beyond.resize(N);
  facts.sizes.resize(N);
  facts.contents.resize(N);
  for (std::size_t i = 0; i < N; ++i) {
    if (arguments[i].is_buffer) facts.sizes[i] = arguments[i].size;
    else if (arguments[i].value) facts.values[i] = arguments[i].value;
    else facts.beyond[i] = arguments[i].beyond;
  }
  return facts;
}

// What the checks and stream ordering read of one argument, its contents left unmeasured
// (bind_and_check measures them, with measure_argument, only where the checks need them).
template <class Param, class Arg>
void describe_argument(Arg& arg, check::bound_argument& checked, ordered_buffer& ordering) {
  checked.kind = Param::kind;
  checked.is_buffer = Param::is_buffer;
  if constexpr (Param::is_buffer) {
    checked.writable = !std::is_same_v<typename Param::mode, access::read>;
    checked.address = std::as_const(arg).data();
    checked.size = static_cast<long long>(arg.size());
    checked.bytes = static_cast<long long>(arg.size() * sizeof(typename Param::value_type));
    ordering = ordered(whole_of(arg));
    if constexpr (!std::is_same_v<typename Param::mode, access::read> && !read_only_argument<Arg&>)
      arg.count_write();  // the cpu backend writes without a stream to record it on
  } else if constexpr (std::is_integral_v<typename Param::value_type> && sizeof(typename Param::value_type) <= sizeof(long long)) {
    // The value the kernel receives: converted to T first (value<unsigned> given -1 is 4294967295).
    // A wider integer (__int128 under gnu++20) would be cut here: it stays unknown to the checks,
    // which then refuse whatever needs its value.
    // An unsigned 64-bit value above LLONG_MAX is not a long long: it is kept as itself, and the
    // checks take it as a large positive number (launch_facts::beyond), not as a negative one.
    using T = typename Param::value_type;
    const T received = static_cast<T>(arg);
    if constexpr (std::is_unsigned_v<T> && sizeof(T) == sizeof(long long)) {
      if (received > static_cast<T>(std::numeric_limits<long long>::max())) {
        checked.beyond = static_cast<unsigned long long>(received);
        return;
      }
    }
    checked.value = static_cast<long long>(received);
  }
}

// Argument I bound in one step: what the checks and stream ordering read of it, into `bound`,
// and with the cache on, its reading (the key's part, check/launch/launch_request.hpp); then
// its slot, returned.
template <class Param, std::size_t I, class Bound, class Key, class Arg>
auto bind_argument(Arg& arg, Bound& bound, Key* key) {
  describe_argument<Param>(arg, bound.checked[I], bound.buffers[I]);
  if (key != nullptr) key->arguments[I] = check::read_argument(bound.checked, I);
  return bind_slot<Param>(arg);
}

// The slots a launch of K passes the kernel, one per parameter (what bind_slot makes): the type of
// its __global__ entry's argument. It depends on the kernel alone, so nvcc's two passes, which name
// the entry separately (launch.hpp), cannot name it with different arguments.
template <class K, std::size_t... I>
auto slots_of(std::index_sequence<I...>) -> detail::pack<backend::slot<typename K::template param<I>>...>;
template <class K>
using slots_for = decltype(slots_of<K>(std::make_index_sequence<K::arity>{}));

// The parameters whose contents the kernel's indices read (check::contents_read_by_indices): a
// named_kernel's once per program run, as its description; a bare kernel_definition's at each launch.
template <class K>
const std::vector<char>& contents_read_of(const K&, const dsl::kernel_ir& ir, std::vector<char>& scratch) {
  if constexpr (requires { typename K::holder; }) {
    static const std::vector<char> once = check::contents_read_by_indices(ir, K::arity);
    return once;
  } else {
    scratch = check::contents_read_by_indices(ir, K::arity);
    return scratch;
  }
}

// E110: a launch argument that is a moved-from buffer (memory/buffer.hpp). It owns no memory and
// has size 0, so every check would pass and the kernel would cover nothing the program meant.
template <class Arg>
bool is_moved_from(const Arg& arg) {
  if constexpr (requires { arg.moved_from(); }) return arg.moved_from();
  else return false;
}
[[noreturn]] inline void refuse_moved_from_argument(std::string_view kernel, std::span<const std::string_view> param_names,
                                                    std::size_t i) {
  const std::vector<std::string> names = check::parameter_names(param_names);
  throw moved_from_error(kernel, names[i] + " (parameter " + std::to_string(i) +
                                     ") is bound to a buffer that was moved from, so it owns no memory; bind the buffer "
                                     "it was moved into, or assign a new buffer to it first");
}

// E101: a view (memory/buffer_view.hpp) whose buffer was given other memory since it was made,
// now shorter than the view's range: the view would bind memory past the buffer's end.
template <class Arg>
bool is_stale_view(const Arg& arg) {
  if constexpr (requires { arg.whole(); arg.offset(); })
    return arg.offset() > arg.whole().size() || arg.size() > arg.whole().size() - arg.offset();
  else
    return false;
}
[[noreturn]] inline void refuse_stale_view(std::string_view kernel, std::span<const std::string_view> param_names,
                                           std::size_t i) {
  const std::vector<std::string> names = check::parameter_names(param_names);
  throw bounds_error(kernel, names[i] + " (parameter " + std::to_string(i) +
                                 ") is bound to a view that reaches past its buffer's end (the buffer was given "
                                 "other memory since the view was made); make the view again from the buffer");
}

// Whether the launch-time checks that refused a launch without the contents of its index buffers
// may pass with them: bounds (E101), wrap-around (E104), loop steps (E103), obligations (E106)
// and stated facts (E107) read those contents; aliasing and the grid's shape do not.
inline bool contents_may_decide(const error& e) {
  return dynamic_cast<const bounds_error*>(&e) != nullptr || dynamic_cast<const wrap_error*>(&e) != nullptr ||
         dynamic_cast<const loop_error*>(&e) != nullptr || dynamic_cast<const obligation_error*>(&e) != nullptr ||
         dynamic_cast<const fact_error*>(&e) != nullptr;
}

// The checks of bind_and_check, on the arguments as bound.
template <class K, class Bound, std::size_t... I, class... Args>
void bind_and_check_checks(const K& kernel, const dsl::kernel_ir& ir, backend::dims3 blocks, launch_check_cache<K::arity>* cache,
                           launch_key<K::arity>& key, const std::array<char, K::arity>& wanted, bool any, Bound& bound,
                           std::index_sequence<I...>, Args&... args) {
  const auto check_as_bound = [&] {
    ++full_launch_checks();
    check::launch_request request;
    request.kernel = kernel.name;
    request.param_names = kernel.param_names;
    request.source = definition_of(kernel).source;
    request.arguments = bound.checked;
    request.ir = &ir;
    request.obligations = &definition_of(kernel).obligations;
    request.block = {K::block_type::x, K::block_type::y, K::block_type::z};
    request.grid = blocks;
    // The key stored is the readings check_launch itself took, not the ones above: a verdict is
    // filed under exactly what it was computed from.
    launch_key<K::arity> checked;
    checked.grid[0] = blocks.x;
    checked.grid[1] = blocks.y;
    checked.grid[2] = blocks.z;
    check::check_launch(request, checked.arguments);
    if (cache != nullptr) cache->remember(checked);
  };
  if (any && !(cache != nullptr && cache->needs_contents(key))) {
    try {
      check_as_bound();
      return;
    } catch (const error& refused) {
      if (!contents_may_decide(refused)) throw;
      if (cache != nullptr) cache->remember_needs_contents(key);
    }
  }
  if (any) {
    // An array, not a vector: a launch whose verdict is cached allocates nothing (launch_standin_test).
    std::array<contents_order, K::arity> orders{};
    bool ordered = false;
    for (char w : wanted) ordered |= (w & check::contents_order_wanted) != 0;
    if (ordered) {
      const std::vector<contents_order> stated =
          check::stated_orders(ir, launch_numbers_of(bound.checked, {K::block_type::x, K::block_type::y, K::block_type::z}, blocks),
                               K::arity);
      for (std::size_t i = 0; i < K::arity && i < stated.size(); ++i) orders[i] = stated[i];
    }
    (measure_argument<typename K::template param<I>>(args, bound.checked[I], wanted[I], orders[I]), ...);
    if (cache != nullptr) {
      for (std::size_t i = 0; i < K::arity; ++i) key.arguments[i] = check::read_argument(bound.checked, i);
      if (cache->passed(key)) return;
    }
  }
  check_as_bound();
}

// The program's name for a launch argument: a buffer's variable (buffer::program_name), a view's
// buffer's, or "" (a value, or a buffer whose line declares no name).
template <class Arg>
std::string program_name_of(const Arg& arg, bool& is_view) {
  is_view = false;
  if constexpr (requires { arg.whole().program_name(); }) {
    is_view = true;
    return arg.whole().program_name();
  } else if constexpr (requires { arg.program_name(); }) {
    return arg.program_name();
  } else {
    (void)arg;
    return {};
  }
}

// A launch's refusal, with the buffers it names as the program names them (the note is written
// once, in check::note_argument_names; only the arguments' names are read here, per argument type).
template <class K, class... Args>
void name_launch_buffers(error& refused, const K& kernel, const dsl::kernel_ir& ir, const Args&... args) noexcept {
  try {
    const check::argument_name arguments[] = {check::argument_name{}, [&] {
      check::argument_name n;
      n.name = program_name_of(args, n.view);
      return n;
    }()...};
    check::note_argument_names(refused, kernel.param_names, definition_of(kernel).source, ir,
                               std::span<const check::argument_name>(arguments + 1, sizeof...(Args)));
  } catch (...) {
  }
}

// Binds the arguments and runs every launch-time check (check::check_launch), or finds that this
// signature passed them before (`cache`, launch/check_cache.hpp); writes no memory, but reads
// (measures) the contents of the read-only buffers whose values the kernel's indices take
// (`contents_read`: contents_read_of), unless the launch is being captured on `stream` (it runs at
// each replay, on the contents of then: their loads stay unbounded). One walk over the arguments
// binds each (slot, checks' view, ordering and reading).
// With `refusal`: a launch the checks refuse (E100-E107) is bound all the same, and the refusal's
// message left there (w::record_anyway, which only records: launch.hpp).
template <class K, std::size_t... I, class... Args>
auto bind_and_check_unnamed(const K& kernel, const dsl::kernel_ir& ir, const std::vector<char>& contents_read, backend::dims3 blocks,
             launch_check_cache<K::arity>* cache, stream_ref stream, std::string* refusal, std::index_sequence<I...>, Args&... args) {
  // The readings' overlap mask (check::argument_reading::overlaps) has a bit per earlier argument.
  static_assert(K::arity <= 64, "warden::launch: a kernel takes at most 64 parameters");
  {
    const bool moved[] = {is_moved_from(args)..., false};
    for (std::size_t i = 0; i < K::arity; ++i)
      if (moved[i]) refuse_moved_from_argument(kernel.name, kernel.param_names, i);
    const bool stale[] = {is_stale_view(args)..., false};
    for (std::size_t i = 0; i < K::arity; ++i)
      if (stale[i]) refuse_stale_view(kernel.name, kernel.param_names, i);
  }
  // Measuring a buffer's contents copies it to the host and scans it (launch/contents.hpp): for a
  // large input that costs more than the kernel (a histogram's `bins[in[i] & 255]` over 2^26
  // values: 268 ms on an H200, the kernel 0.07 ms). So the checks run first with no contents, each
  // load of those buffers unknown (its type's full range where the type is narrow); the checks
  // read an unknown value as anything it could be, so what passes so is sound for any contents,
  // and nothing is read. (One check is not monotone in the ranges: E104 takes a shift whose
  // operands are bounded but whose result is not as lossy, not as an overflow, and with contents
  // may bound the result past INT_MAX and refuse. Passing is sound either way: an unbounded value
  // is one no proof relies on.) Only a launch refused without contents, by a check they can
  // decide (contents_may_decide), measures and is checked on what the buffers hold; a signature
  // that needed them skips the first try next time (the cache). full_launch_checks() counts check
  // runs: two for such a launch.
  std::array<char, K::arity> wanted{};
  bool any = false;
  for (std::size_t i = 0; i < K::arity; ++i) any |= (wanted[i] = contents_read[i]) != 0;
  if (any && being_captured(stream)) wanted = {}, any = false;
  using slots_type = slots_for<K>;
  bound_launch<slots_type, K::arity> bound{};
  launch_key<K::arity> key;
  key.grid[0] = blocks.x;
  key.grid[1] = blocks.y;
  key.grid[2] = blocks.z;
  launch_key<K::arity>* reading = cache != nullptr ? &key : nullptr;
  // Braces, not a call: their initialisers run left to right, so an argument's alias is looked
  // for among earlier arguments already described.
  bound.slots = slots_type{{{bind_argument<typename K::template param<I>, I>(args, bound, reading)}...}};
  if (cache != nullptr && cache->passed(key)) return bound;
  if (refusal != nullptr) {
    try {
      bind_and_check_checks(kernel, ir, blocks, cache, key, wanted, any, bound, std::index_sequence<I...>{}, args...);
    } catch (error& refused) {
      name_launch_buffers(refused, kernel, ir, args...);
      *refusal = refused.what();
    }
  } else {
    bind_and_check_checks(kernel, ir, blocks, cache, key, wanted, any, bound, std::index_sequence<I...>{}, args...);
  }
  return bound;
}

// bind_and_check_unnamed, with a refusal's buffers named as the program names them.
template <class K, std::size_t... I, class... Args>
auto bind_and_check(const K& kernel, const dsl::kernel_ir& ir, const std::vector<char>& contents_read, backend::dims3 blocks,
                    launch_check_cache<K::arity>* cache, stream_ref stream, std::string* refusal, std::index_sequence<I...> indices,
                    Args&... args) {
  try {
    return bind_and_check_unnamed(kernel, ir, contents_read, blocks, cache, stream, refusal, indices, args...);
  } catch (error& refused) {
    name_launch_buffers(refused, kernel, ir, args...);
    throw;
  }
}

}  // namespace warden::detail
