#pragma once
// The one table of warden's diagnostics: one row per code. Everything else that names a code is
// made from these rows: the enum of codes (diagnostic/codes.hpp, which the checker's findings use too), the classes whose
// static_asserts carry the race rules (diagnostic/race_rules.hpp, mapped in check/diagnostic.hpp),
// the heads of the type rules' messages (WARDEN_DIAGNOSTIC_MESSAGE at each static_assert), the
// run-time errors' texts (diagnostic/text.hpp, error.hpp) and the table in docs/diagnostics.md
// (scripts/diagnostics-codes reads this file). To add a code: add its row and its name to WARDEN_DIAGNOSTIC_CODES, in code order.
//
// A row is a macro, not a constexpr value, because a static_assert's message must be a string
// literal (until C++26): the rows are spliced into literals by the preprocessor.
//
// Columns: code, kind, identifier, short name, rule, fix, raised by.
//   kind   type   - a compile-time rule of the types (access modes, spaces), at the offending call;
//          race   - the race and divergence checker, where the kernel is defined;
//          launch - checked at run time before anything runs (or memory is allocated); an exception;
//          run    - found while the kernel runs, at the access (the cpu backend); an exception.
//          lint   - a performance warning of the checker, where an accepted kernel is defined; the
//                   program still compiles (diagnostic/lint_rules.hpp, check/lints.hpp).

// clang-format off
#define WARDEN_DIAGNOSTIC_W001 (W001, type, host_deref_device, "host-deref-device", \
  "host code indexes, dereferences or iterates over device memory", \
  "copy it to the host with to_host(buffer), or keep a host mirror (pinned_buffer, to_host_async)", \
  "`device_buffer`")
#define WARDEN_DIAGNOSTIC_W002 (W002, type, host_memory_in_kernel, "host-memory-in-kernel", \
  "a kernel buffer parameter is bound to host-only memory", \
  "copy it to the device with to_device(range), or use a pinned_buffer or managed_buffer", \
  "`launch` / `record`")
#define WARDEN_DIAGNOSTIC_W003 (W003, type, store_to_read_only, "store-to-read-only", \
  "a store through a read-only path (an in<T> parameter, a read view)", \
  "declare the parameter out<T> or inout<T>, or view the range with access::write or access::read_write", \
  "host views and kernels (`in<T>`)")
#define WARDEN_DIAGNOSTIC_W004 (W004, type, load_from_write_only, "load-from-write-only", \
  "a load through a write-only path (an out<T> parameter, a write view)", \
  "declare the parameter inout<T>, or view the range with access::read_write", \
  "host views and kernels (`out<T>`)")
#define WARDEN_DIAGNOSTIC_W005 (W005, type, stateful_call, "stateful-call", \
  "`w::call` given a function object with state (captures or data members)", \
  "pass the state as arguments, or put the code under trusted(...)", \
  "`w::call`")
#define WARDEN_DIAGNOSTIC_W006 (W006, type, unchecked_kernel, "unchecked-kernel", \
  "`w::launch` given a kernel `dsl::build_kernel` built without the checker; or, in nvcc's phases of a file `warden_host_precheck` checked, a kernel that the precheck's table does not list", \
  "define it with warden::kernel<...>(body), and mark what the checker cannot prove with trusted(...); for a kernel missing from the precheck's table, write its body the same way for every compiler, then build again", \
  "`launch`; `w::kernel` under the precheck's table")
#define WARDEN_DIAGNOSTIC_W007 (W007, type, fact_not_uniform, "fact-not-uniform", \
  "`w::given(fact, ...)` with a fact that reads what the launch does not fix (thread ids, loaded data, locals, loop variables, floating-point values)", \
  "state facts over integral value<T> parameters, sizes, block and grid extents and constants; use when(...) for a condition on threads or data", \
  "`w::given`")
#define WARDEN_DIAGNOSTIC_W008 (W008, type, narrowing_store, "narrowing-store", \
  "a floating-point value stored into an integral element (a buffer, tile, local or atomic of an integer type), which C++ would truncate silently", \
  "convert it explicitly with w::convert<T>(value), after rounding it if that is what you mean (w::round, w::floor, w::ceil)", \
  "stores and atomics in kernels")
#define WARDEN_DIAGNOSTIC_W009 (W009, type, register_index, "register-index", \
  "a register array indexed by something other than a w::unroll counter or an integer constant, or past its extent", \
  "index it with the counter of a w::unroll<N> loop (N at most the extent) or a constant; keep data-dependent indexing in a shared tile", \
  "`w::registers` element access")
#define WARDEN_DIAGNOSTIC_W010 (W010, race, global_write_write_race, "write-write-race", \
  "two threads of the grid may store to one element", \
  "give each thread its own index (guard it), or use atomic<T>", \
  "the checker, at `kernel<...>(body)`")
#define WARDEN_DIAGNOSTIC_W011 (W011, race, global_read_write_race, "read-write-race", \
  "a thread may load an element another thread stores, with no sync() between (blocks never synchronise)", \
  "read a different buffer, or split the kernel", \
  "the checker")
#define WARDEN_DIAGNOSTIC_W012 (W012, race, data_dependent_store, "data-dependent-store", \
  "a store index depends on loaded data", \
  "if the index is p[e] for an in<T> buffer p with no two equal elements, state given(distinct(p), ...) (launch checks it, E107); else use atomic<T>", \
  "the checker")
#define WARDEN_DIAGNOSTIC_W020 (W020, race, shared_race, "shared-race", \
  "two threads touch one shared element in one barrier phase, one of them storing", \
  "add sync() between the store and the other access", \
  "the checker")
#define WARDEN_DIAGNOSTIC_W021 (W021, race, loop_carried_shared_race, "loop-carried-shared-race", \
  "the next iteration reuses a shared tile another thread still reads or writes", \
  "add sync() at the end of the loop body", \
  "the checker")
#define WARDEN_DIAGNOSTIC_W022 (W022, race, uninitialised_shared_load, "uninitialised-shared-load", \
  "a shared element is loaded that no earlier phase stores", \
  "store it first, in the thread that should (and sync()); a load skipped instead changes what the kernel computes", \
  "the checker")
#define WARDEN_DIAGNOSTIC_W030 (W030, race, barrier_divergence, "barrier-divergence", \
  "sync() under a condition or loop bound that differs between threads", \
  "move sync() out, or make the condition uniform (parameters, block ids)", \
  "the checker")
#define WARDEN_DIAGNOSTIC_W031 (W031, race, shuffle_divergence, "shuffle-divergence", \
  "a warp shuffle that part of a warp skips, or in a block of partial warps", \
  "keep it out of conditions and loops that differ within a warp (t < 32 is fine, i < n is not), in a block of whole warps", \
  "the checker")
#define WARDEN_DIAGNOSTIC_W032 (W032, race, outer_context, "outer-context", \
  "a scope (for_range, grid_stride, unroll, local, registers, a shuffle, shared) opened with the context of an enclosing scope, whose variable it then hides", \
  "open it with the context its enclosing lambda receives: name that lambda's first parameter, [&](auto k, auto j) { return w::for_range(k, ...); }", \
  "the checker")
#define WARDEN_DIAGNOSTIC_W040 (W040, race, atomic_plain_mix, "atomic-plain-mix", \
  "one element is accessed atomically and plainly in one phase", \
  "make every access atomic, or separate them with sync()", \
  "plain access of an `atomic<T>` parameter (handles), and the checker for `inout<T>` and shared tiles")
#define WARDEN_DIAGNOSTIC_W050 (W050, lint, bank_conflict, "bank-conflict", \
  "a shared access that a warp's lanes serialise: distinct 4-byte words in one of the 32 banks (a warning)", \
  "pad the tile's rows as the warning advises (w::shared<T, R, C, Pad>), or change the index or the block's shape so that a warp's lanes fall in distinct banks", \
  "the checker, at `kernel<...>(body)` (a warning)")
#define WARDEN_DIAGNOSTIC_W051 (W051, lint, uncoalesced, "uncoalesced", \
  "a global access whose warp touches more than twice the 32-byte sectors its bytes need (a warning)", \
  "make consecutive threads touch consecutive elements (stage a strided access through a shared tile)", \
  "the checker, at `kernel<...>(body)` (a warning)")
#define WARDEN_DIAGNOSTIC_E100 (E100, launch, aliasing, "aliasing", \
  "one buffer bound to two parameters of a launch, or two views of one buffer that share an element, one of them writable", \
  "a writable parameter needs memory of its own: bind a copy, or views of disjoint ranges; to work in place, one inout parameter read and written", \
  "`aliasing_error`")
#define WARDEN_DIAGNOSTIC_E101 (E101, launch, out_of_bounds, "out-of-bounds", \
  "an access may overrun its buffer, view or tile for this launch, or a view reaches past its buffer", \
  "guard the access, size the buffers to the grid, or clamp a data-dependent index", \
  "`bounds_error`")
#define WARDEN_DIAGNOSTIC_E102 (E102, launch, grid_shape, "grid-shape", \
  "the grid extends in a dimension the kernel never refers to, has a negative extent, more blocks than CUDA allows, or more threads in a dimension than int ids count", \
  "launch a grid of one block in the dimensions the kernel does not name, within CUDA's limits", \
  "`grid_error`")
#define WARDEN_DIAGNOSTIC_E103 (E103, launch, loop_step, "loop-step", \
  "a run-time loop's step may be below 1 for this launch (the loop would never end)", \
  "pass a positive step, or guard the loop", \
  "`loop_error`")
#define WARDEN_DIAGNOSTIC_E104 (E104, launch, integer_wrap, "integer-wrap", \
  "an operation carried out in an unsigned type (an index, guard, loop bound or lane) may wrap around for this launch, int arithmetic there may overflow, or a loop bound does not fit the loop's int counter", \
  "compute it in a 64-bit signed type (w::convert<long long>(x)), guard it, or pass values that keep it in range (a loop's bounds in int)", \
  "`wrap_error`")
#define WARDEN_DIAGNOSTIC_E105 (E105, launch, pool_space, "pool-space", \
  "a buffer the host indexes (pinned, managed, host) from a pool of memory the host cannot reach", \
  "use a pool over memory of that space (default_pool<space::...>())", \
  "`space_error`, when a buffer is made or a default pool set")
#define WARDEN_DIAGNOSTIC_E106 (E106, launch, launch_obligation, "launch-obligation", \
  "a condition on the launch's values that the checker's proof rests on fails (`w::obligations_of` lists them)", \
  "launch with values that meet it, or state a fact the proof can use (given(...))", \
  "`obligation_error`")
#define WARDEN_DIAGNOSTIC_E107 (E107, launch, stated_fact, "stated-fact", \
  "a fact the kernel states with `w::given(...)` is false, or cannot be computed, for this launch's values", \
  "pass the values and data the kernel is meant for, or state a fact that holds of them (the message asks which)", \
  "`fact_error`")
#define WARDEN_DIAGNOSTIC_E108 (E108, run, uninitialised_shared_read, "uninitialised-shared-read", \
  "a thread loads a shared-tile element that no thread of its block has stored (cpu backend, debug builds, where tiles start poisoned; under trusted(...), where the checker's W022 does not look)", \
  "store the element before the load, with sync() between when another thread stores it", \
  "`uninitialised_read_error`, at the load (cpu backend)")
#define WARDEN_DIAGNOSTIC_E109 (E109, launch, graph_capture, "graph-capture", \
  "a captured graph cannot run as captured: replayed after a buffer it captured or its stream was freed, captured on the default stream or inside another capture, a transfer, allocation or replay on the captured stream inside the body, work another thread issues to that stream, or warden work issued to a stream captured outside `w::capture`", \
  "keep the buffers and the stream alive as long as the graph; capture with `w::capture` on a `w::stream`, and issue only launches to it in the body", \
  "`capture_error`, before anything is issued")
#define WARDEN_DIAGNOSTIC_E110 (E110, launch, moved_from, "moved-from", \
  "a buffer that was moved from (it owns no memory and has size 0) is bound to a launch, a copy, a download or a host view", \
  "use the buffer it was moved into, or assign a new buffer to it first (b = w::device_buffer<T>(n))", \
  "`moved_from_error`, before anything is issued")
#define WARDEN_DIAGNOSTIC_E111 (E111, launch, foreign_stream, "foreign-stream", \
  "work issued on one thread to a `stream_ref` made from `cudaStreamPerThread` on another: there the handle names the issuing thread's own stream, not the one the ref stands for", \
  "make the `stream_ref` (or pass `cudaStreamPerThread`) on the thread that issues the work, or share a `w::stream`", \
  "`foreign_stream_error`, before anything is issued")
#define WARDEN_DIAGNOSTIC_E112 (E112, launch, pool_observer, "pool-observer", \
  "a pool's observer threw while an allocation reported an event to it (a budget enforced by throwing from the callback); on a free, where nothing can throw, it is reported on stderr", \
  "hold the pool to a budget with `pool.set_limit(bytes)` (an allocation past it throws `out_of_memory`); let the observer record or report, not throw", \
  "`observer_error`, from the allocation, which is undone")
// clang-format on

// Every code, in order; X(code) is applied to each.
#define WARDEN_DIAGNOSTIC_CODES(X)                                                              \
  X(W001) X(W002) X(W003) X(W004) X(W005) X(W006) X(W007) X(W008) X(W009) X(W010) X(W011) X(W012) X(W020) \
  X(W021) X(W022) X(W030) X(W031) X(W032) X(W040) X(W050) X(W051) X(E100) X(E101) X(E102) X(E103) X(E104) X(E105) \
  X(E106) X(E107) X(E108) X(E109) X(E110) X(E111) X(E112)

// ---- reading a row ---------------------------------------------------------------------------
#define WARDEN_DETAIL_DIAGNOSTIC_APPLY(macro, row) macro row
#define WARDEN_DETAIL_DIAGNOSTIC_ROW(macro, code) WARDEN_DETAIL_DIAGNOSTIC_APPLY(macro, WARDEN_DIAGNOSTIC_##code)

#define WARDEN_DETAIL_DIAGNOSTIC_HEAD(code, kind, id, name, rule, fix, by) #code " [" name "] "
#define WARDEN_DETAIL_DIAGNOSTIC_RULE(code, kind, id, name, rule, fix, by) rule ": " fix

// The literal that starts every message of a code: "W003 [store-to-read-only] ".
#define WARDEN_DIAGNOSTIC_HEAD(code) WARDEN_DETAIL_DIAGNOSTIC_ROW(WARDEN_DETAIL_DIAGNOSTIC_HEAD, code)
// A message at a static_assert: the head, the entity the message is about (the call that failed)
// and what went wrong there with its fix, as one literal.
#define WARDEN_DIAGNOSTIC_MESSAGE(code, entity, what) WARDEN_DIAGNOSTIC_HEAD(code) entity ": " what
// The row's own rule and fix, for a message that has no entity of its own (the race rules).
#define WARDEN_DIAGNOSTIC_RULE_TEXT(code) \
  WARDEN_DIAGNOSTIC_HEAD(code) WARDEN_DETAIL_DIAGNOSTIC_ROW(WARDEN_DETAIL_DIAGNOSTIC_RULE, code)

// Keeps the rows of one kind: WARDEN_DETAIL_DIAGNOSTIC_IF_<kind>(...) is its arguments or nothing.
#define WARDEN_DETAIL_DIAGNOSTIC_IF_type(...)
#define WARDEN_DETAIL_DIAGNOSTIC_IF_race(...) __VA_ARGS__
#define WARDEN_DETAIL_DIAGNOSTIC_IF_launch(...)
#define WARDEN_DETAIL_DIAGNOSTIC_IF_run(...)
#define WARDEN_DETAIL_DIAGNOSTIC_IF_lint(...)
