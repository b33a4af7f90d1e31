// check/source_names.hpp: the user's names in a kernel's diagnostics (issue 16, item 2). A body is
// written once by KERNEL_BODY, which gives both the lambda and the text WARDEN_KERNEL would keep,
// so that each verdict below is the one the checker gives that kernel under WARDEN_KERNEL.
#include <warden/warden.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <string_view>

namespace w = warden;
namespace c = warden::check;

#define KERNEL_BODY(name, ...)                      \
  constexpr auto name = __VA_ARGS__;                \
  constexpr std::string_view name##_text = #__VA_ARGS__

namespace {

template <class Block, class... Params, class F>
constexpr auto text_of(F body, std::string_view source) {
  return c::verdict_of(w::dsl::build_kernel<Block, Params...>(body), source).text;
}

KERNEL_BODY(halves, [](auto k, auto src, auto dst) {
  auto i = k.global_id();
  return w::when(i < src.size(), dst[i / 2] = src[i]);
});

KERNEL_BODY(tiled, [](auto k, auto src, auto dst, auto n) {
  return w::shared<float, 32>(k, [&](auto k, auto stage) {
    auto t = k.thread_id();
    return w::for_range(k, 0, n, [&](auto, auto round) {
      return w::seq(stage[t] = src[round * 32 + t], dst[round * 32 + t] = stage[31 - t]);
    });
  });
});

// A helper lambda that is not a scope, and a for_down whose variable is not the loop's counter.
KERNEL_BODY(helpers, [](auto k, auto data) {
  auto t = k.thread_id();
  auto twice = [](auto e) { return e * 2; };
  return w::shared<int, 64>(k, [&](auto k, auto cells) {
    return w::seq(cells[t] = data[t], w::for_down(k, 4, 0, [&](auto, auto r) { return cells[twice(t) % 64 + r] = cells[t]; }));
  });
});

TEST_CASE("source names: buffers, index aliases, loop variables and tiles as the user wrote them", "[check][names]") {
  constexpr auto plain = text_of<w::block<64>, w::in<float>, w::out<float>>(halves, {});
  constexpr auto named = text_of<w::block<64>, w::in<float>, w::out<float>>(halves, halves_text);
  CHECK(std::string(plain.view()) == "out#1: store out#1[global_id.x / 2] vs store out#1[global_id.x / 2]: threads of different blocks may meet");
  CHECK(std::string(named.view()) ==
        "dst: store dst[i / 2] vs store dst[i / 2] in `dst[i / 2] = src[i]`: threads of different blocks may meet");

  constexpr auto tile_race = text_of<w::block<32>, w::in<float>, w::out<float>, w::value<int>>(tiled, tiled_text);
  CHECK(std::string(tile_race.view()) ==
        "stage: store stage[t] in `stage[t] = src[round * 32 + t]` vs load stage[31 - t] in `dst[round * 32 + t] = "
        "stage[31 - t]`: threads 0 and 31 meet at element 0 in one phase; checked fix: add sync() before `dst[round * 32 + t] = "
        "stage[31 - t]`, and add sync() at the end of the body of loop round, after `dst[round * 32 + t] = stage[31 - t]`");
  constexpr auto tile_plain = text_of<w::block<32>, w::in<float>, w::out<float>, w::value<int>>(tiled, {});
  CHECK(std::string(tile_plain.view()) ==
        "tile0: store tile0[thread_id.x] vs load tile0[31 - thread_id.x]: threads 0 and 31 meet at element 0 in one phase; checked fix: "
        "add sync() before load tile0[31 - thread_id.x], and add sync() at the end of the body of loop i1, after store out#1[i1 * 32 + "
        "thread_id.x]");
}

TEST_CASE("source names: helper lambdas are not scopes, a for_down's counter keeps its default name", "[check][names]") {
  constexpr auto v = text_of<w::block<64>, w::inout<int>>(helpers, helpers_text);
  const std::string text(v.view());
  INFO(text);
  CHECK(text.rfind("cells: ", 0) == 0);
  CHECK(text.find("i1") != std::string::npos);       // for_down's counter: r is 3 - i1, not the counter
  CHECK(text.find(" r ") == std::string::npos);
  CHECK(text.find(" r]") == std::string::npos);
  CHECK(text.find("tile") == std::string::npos);
  CHECK(text.find("thread_id") == std::string::npos);  // t
}

TEST_CASE("source names: a source that does not match the program gives no names, never wrong ones", "[check][names]") {
  // One loop in the text, none in the program; the parameters still match.
  constexpr std::string_view extra_loop = "[](auto k, auto src, auto dst) { return w::for_range(k, 0, 4, [&](auto, auto q) { return dst[q] = src[q]; }); }";
  constexpr auto v = text_of<w::block<64>, w::in<float>, w::out<float>>(halves, extra_loop);
  CHECK(std::string(v.view()) == "dst: store dst[global_id.x / 2] vs store dst[global_id.x / 2]: threads of different blocks may meet");
  // Three parameters in the text for a kernel of two: positional names.
  constexpr std::string_view wrong_arity = "[](auto k, auto a, auto b, auto c) { }";
  constexpr auto u = text_of<w::block<64>, w::in<float>, w::out<float>>(halves, wrong_arity);
  CHECK(std::string(u.view()).rfind("out#1: ", 0) == 0);
  // A tile in the text at another nesting level than the program's.
  constexpr std::string_view nested_tile =
      "[](auto k, auto src, auto dst, auto n) { return w::local(k, 0, [&](auto k, auto v) { return w::shared<float, 32>(k, [&](auto k, auto stage) { return w::for_range(k, 0, n, [&](auto, auto round) { return 0; }); }); }); }";
  constexpr auto t = text_of<w::block<32>, w::in<float>, w::out<float>, w::value<int>>(tiled, nested_tile);
  CHECK(std::string(t.view()).rfind("tile0: ", 0) == 0);
}

TEST_CASE("source names: the statement an access is written in, quoted only when it is written once in its role", "[check][names]") {
  constexpr std::string_view source = "[](auto k, auto a, auto b) { auto i = k.global_id(); return w::seq(a[i] = b[i + 1] * 2, "
                                      "w::when(i < 4, b[(i)] = 0), w::atomic_add(a[i * 2], 1), b[i + 1] = 3); }";
  using role = c::access_role;
  STATIC_REQUIRE(c::statement_of(source, "a[i]", role::store) == "a[i] = b[i + 1] * 2");
  STATIC_REQUIRE(c::statement_of(source, "a[i]", role::load).empty());           // written there as a store
  STATIC_REQUIRE(c::statement_of(source, "b[i]").empty());                       // written b[(i)]: another spelling
  STATIC_REQUIRE(c::statement_of(source, "a[i * 2]", role::atomic) == "w::atomic_add(a[i * 2], 1)");  // the call
  STATIC_REQUIRE(c::statement_of(source, "b[i + 1]").empty());                   // written twice: no quote
  // ... unless once in the access's role: loaded once, stored once.
  STATIC_REQUIRE(c::statement_of(source, "b[i + 1]", role::store) == "b[i + 1] = 3");
  STATIC_REQUIRE(c::statement_of(source, "b[i + 1]", role::load) == "a[i] = b[i + 1] * 2");
  // An atomic's target is not a load of it.
  STATIC_REQUIRE(c::statement_of("w::atomic_add(n[0], 1), s[t] = n[0]", "n[0]", role::load) == "s[t] = n[0]");
  STATIC_REQUIRE(c::statement_of(source, "a[i + 1]").empty());                   // not written
  STATIC_REQUIRE(c::statement_of("x[i] = ya[i]", "a[i]").empty());               // not inside another name
  // Parentheses count: 2 * (i + 1) is not 2 * i + 1; a string literal is not code.
  STATIC_REQUIRE(c::statement_of("b[i] = a[2 * i + 1]", "a[2 * (i + 1)]").empty());
  STATIC_REQUIRE(c::statement_of("f(\"a[i + 1] = a[i]\"), x = a[i + 1]", "a[i + 1]", role::load) == "x = a[i + 1]");
}

TEST_CASE("source names: the reader against hand-written sources", "[check][names]") {
  constexpr auto scan = c::scan_source(
      "w::kernel<w::block<64>, w::in<int>>([](auto k, const auto& in, [[maybe_unused]] auto) {"
      " auto g = k.global_id(); auto x = k.thread_id() + 1; char q = ']'; const char* s = \"[](auto z)\";"
      " return w::for_until(k, 0, 8, [&](auto k, auto i) { return in[i] < 0; }, [&](auto k, auto i) {"
      " return w::shuffle_xor(k, in[i], 1, [&](auto, auto other) { return 0; }); }); })");
  STATIC_REQUIRE(scan.lambda_count == 4);
  STATIC_REQUIRE(scan.lambdas[0].count == 3);
  STATIC_REQUIRE(scan.lambdas[0].params[1] == "in");
  STATIC_REQUIRE(scan.lambdas[0].params[2].empty());
  STATIC_REQUIRE(scan.indices[4][0] == "g");       // global_id
  STATIC_REQUIRE(scan.indices[0][0].empty());      // `auto x = k.thread_id() + 1` is not an alias
  STATIC_REQUIRE(scan.lambdas[1].kind == c::source_scan::scope::until);
  STATIC_REQUIRE(scan.lambdas[1].level == 1);      // for_until's flag is at level 0, its loop at 1
  STATIC_REQUIRE(scan.lambdas[1].call == scan.lambdas[2].call);
  STATIC_REQUIRE(scan.lambdas[3].kind == c::source_scan::scope::local);
  STATIC_REQUIRE(scan.lambdas[3].level == 2);
  STATIC_REQUIRE(scan.lambdas[3].params[1] == "other");
}

// Kernels the red team wrote to make the reader name the wrong thing (issue 16 review): each must
// give the defaults, never a wrong name.
KERNEL_BODY(reordered, [](auto k, auto a, auto b) {
  auto t = k.thread_id();
  auto first = w::for_range(k, 0, 4, [&](auto, auto p) { return b[k.block_id() * 256 + p * 64 + t] = 1; });
  auto second = w::for_range(k, 0, 4, [&](auto, auto q) { return a[q] = 2; });
  return w::seq(second, first);
});
KERNEL_BODY(templated, []<class K>(K k, auto a) {
  auto i = k.global_id();
  return w::local(k, 0, [&](auto, auto s) { return w::when(i + 1 < a.size(), a[i] = a[i + 1] + s); });
});
KERNEL_BODY(stored_local, [](auto k, auto a) {
  auto i = k.global_id();
  auto shifted = [&](auto, auto off) { return w::when(i + 2 < a.size(), a[i] = a[i + off]); };
  return w::seq(w::local(k, 0, [&](auto, auto sum) { return sum = 1; }), w::local(k, 1, shifted));
});
KERNEL_BODY(alias_twice, [](auto k, auto a, auto b) {
  return w::seq(w::local(k, 0, [&](auto k, auto s) { auto g = k.global_id(); return s = g; }),
                w::local(k, 1, [&](auto k, auto u) {
                  auto g = k.thread_id() * 2;
                  return w::seq(b[g] = a[g], w::when(k.global_id() + 1 < a.size(), a[k.global_id()] = u));
                }));
});
KERNEL_BODY(alias_is_param, [](auto k, auto a, auto b, auto n) {
  return w::seq(w::local(k, 0, [&](auto k, auto s) { auto n = k.global_id(); return w::when(n < b.size(), b[n] = s); }),
                w::when(k.global_id() < a.size() && n < a.size(), a[k.global_id()] = a[n]));
});
KERNEL_BODY(mixed_spelling, [](auto k, auto a, auto b) {
  auto i = k.global_id();
  return w::when(i + 1 < a.size(), w::seq(a[k.global_id()] = 0, b[i] = a[i], b[i] += a[i + 1]));
});
KERNEL_BODY(shadowed_loop, [](auto k, auto a) {
  return w::for_range(k, 0, 4, [&](auto k, auto j) {
    auto row = j;
    return w::for_range(k, 0, 4, [&](auto, auto j) { return a[row * 4 + j] = 1; });
  });
});

TEST_CASE("source names: what the red team tried gives the defaults, never a wrong name", "[check][names]") {
  using io = w::inout<int>;
  const std::string reorder(text_of<w::block<64>, io, w::out<int>>(reordered, reordered_text).view());
  INFO(reorder);
  CHECK(reorder.find(" p") == std::string::npos);  // the racing loop is q; order unknown: i0
  CHECK(reorder.find("a[i0]") != std::string::npos);
  const std::string tmpl(text_of<w::block<64>, io>(templated, templated_text).view());
  CHECK(tmpl.rfind("a: ", 0) == 0);  // a template head is read: the buffer is a, not s
  const std::string stored(text_of<w::block<64>, io>(stored_local, stored_local_text).view());
  CHECK(stored.find("sum") == std::string::npos);  // the local at level 0 that races is off, kept elsewhere
  const std::string twice(text_of<w::block<64>, io, w::out<int>>(alias_twice, alias_twice_text).view());
  CHECK(twice.find("[g]") == std::string::npos);  // g is global_id in one scope, thread_id * 2 in the other
  const std::string param(text_of<w::block<64>, io, w::out<int>, w::value<int>>(alias_is_param, alias_is_param_text).view());
  CHECK(param.find("store a[n]") == std::string::npos);  // the store's index is global_id, n is the parameter
  const std::string spelled(text_of<w::block<64>, io, io>(mixed_spelling, mixed_spelling_text).view());
  CHECK(spelled.find("`b[i] = a[i]`") == std::string::npos);  // that statement loads a[i]; the store is elsewhere
  const std::string shadow(text_of<w::block<64>, io>(shadowed_loop, shadowed_loop_text).view());
  CHECK(shadow.find("j * 4") == std::string::npos);  // two loops named j: their defaults
  // Two kernels in one text: which lambda is the body is not known.
  constexpr auto two = c::names_from_source<2>(
      "second_of(w::kernel<B, I, O>([](auto k, auto src, auto dst) { return 0; }), w::kernel<B, O, I>([](auto k, auto dst, auto src) { return 0; }))",
      w::dsl::kernel_ir{});
  STATIC_REQUIRE(two.params[0].empty());
}

}  // namespace

// A kernel declared with WARDEN_KERNEL carries its source; its handle finds it too.
WARDEN_KERNEL(copy_k, w::kernel<w::block<64>, w::in<int>, w::out<int>>([](auto k, auto from, auto to) {
                auto i = k.global_id();
                return w::when(i < to.size(), to[i] = from[i]);
              }));
constexpr auto unnamed_body = [](auto k, auto from, auto to) { return to[k.global_id()] = from[k.global_id()]; };
inline constexpr auto unnamed_k = w::kernel<w::block<64>, w::in<int>, w::out<int>>(unnamed_body);

TEST_CASE("source names: WARDEN_KERNEL keeps its source, a body defined elsewhere has none", "[check][names]") {
  constexpr std::string_view source = c::kernel_source_of<copy_k_warden_kernel>::text;
  STATIC_REQUIRE(source.find("[](auto k, auto from, auto to)") != std::string_view::npos);
  STATIC_REQUIRE(c::kernel_source_of<copy_k_warden_kernel>::kernel == "copy_k");
  STATIC_REQUIRE(c::kernel_source_of<decltype(unnamed_body)>::text.empty());
}

// The parameters' mode rules (check/modes.hpp): the checker names the parameter, quotes the
// statement and picks the fix from what the rest of the kernel does with the parameter.
KERNEL_BODY(scales_in_place, [](auto k, auto data) {
  auto i = k.global_id();
  return w::when(i < data.size(), data[i] = data[i] * 2.f);
});
KERNEL_BODY(fills, [](auto k, auto src, auto dst) {
  auto i = k.global_id();
  return w::when(i < src.size(), w::seq(src[i] = 0.f, dst[i] = 1.f));
});
KERNEL_BODY(bumps, [](auto k, auto result) {
  auto i = k.global_id();
  return w::when(i < result.size(), result[i] += 1);
});
KERNEL_BODY(counts, [](auto k, auto in, auto bins, auto seen) {
  auto i = k.global_id();
  return w::when(i < in.size(), w::seq(w::atomic_add(bins[in[i] & 3], 1), seen[i] = bins[0], bins[1] = 0));
});

TEST_CASE("mode rules: W003, W004 and W040 name the parameter and fit the fix to the kernel", "[check][names][modes]") {
  const auto code = [](const auto& kernel) { return w::check::verdict_of(kernel).finding.code; };
  using w::diagnostic::code;
  // A store through in<T> that the kernel also loads: inout<T>, not out<T> (which would then be W004).
  constexpr auto in_place = text_of<w::block<64>, w::in<float>>(scales_in_place, scales_in_place_text);
  CHECK(std::string(in_place.view()) ==
        "data: store data[i] in `data[i] = data[i] * 2.f`: data is in<float>, read-only; declare it inout<float> "
        "(the kernel also loads it)");
  // Only stored: out<T>.
  constexpr auto only_stored = text_of<w::block<64>, w::in<float>, w::out<float>>(fills, fills_text);
  CHECK(std::string(only_stored.view()) == "src: store src[i] in `src[i] = 0.f`: src is in<float>, read-only; declare it out<float>");
  constexpr auto loaded = text_of<w::block<64>, w::out<int>>(bumps, bumps_text);
  CHECK(std::string(loaded.view()) ==
        "result: load result[i] in `result[i] += 1`: result is out<int>, write-only; declare it inout<int> to load it");
  // atomic<T>: the first plain access, a load (no atomic reads back into the kernel), then a store.
  constexpr auto atomic_load = text_of<w::block<64>, w::in<int>, w::atomic<int>, w::out<int>>(counts, counts_text);
  CHECK(std::string(atomic_load.view()) ==
        "bins: load bins[0] in `seen[i] = bins[0]`: bins is atomic<int>, which only atomics may touch: load it in a later "
        "kernel that takes it as in<int> (launches on one stream are ordered), or declare it inout<int> if no thread "
        "updates it atomically");
  // Each fix, followed, is accepted.
  CHECK(code(w::dsl::build_kernel<w::block<64>, w::in<float>>(scales_in_place)) == code::W003);
  CHECK(code(w::dsl::build_kernel<w::block<64>, w::inout<float>>(scales_in_place)) == code::none);
  CHECK(code(w::dsl::build_kernel<w::block<64>, w::out<float>>(scales_in_place)) == code::W004);  // why not out<T>
  CHECK(code(w::dsl::build_kernel<w::block<64>, w::out<float>, w::out<float>>(fills)) == code::none);
  CHECK(code(w::dsl::build_kernel<w::block<64>, w::out<int>>(bumps)) == code::W004);
  CHECK(code(w::dsl::build_kernel<w::block<64>, w::inout<int>>(bumps)) == code::none);
  CHECK(code(w::dsl::build_kernel<w::block<64>, w::in<int>, w::atomic<int>, w::out<int>>(counts)) == code::W040);
}

// w::explain (warden/explain.hpp): the verdict as text at run time, for compilers that print the
// explanation as characters and for bodies that do not compile under w::kernel.
TEST_CASE("w::explain prints the code, its rule and fix, and the explanation, and says when a kernel is accepted", "[check][names][explain]") {
  const std::string rejected = w::explain<w::block<64>, w::in<float>>(scales_in_place);
  CHECK(rejected.rfind("W003 [store-to-read-only] a store through a read-only path", 0) == 0);
  // No WARDEN_KERNEL here, so no source: the parameter is named by kind and position.
  CHECK(rejected.find("\n  in#0: store in#0[global_id.x]") != std::string::npos);
  CHECK(rejected.find("declare it inout<float> (the kernel also loads it)") != std::string::npos);
  CHECK(w::explain(w::dsl::build_kernel<w::block<64>, w::in<float>>(scales_in_place)) == rejected);
  CHECK(w::explain<w::block<64>, w::inout<float>>(scales_in_place) == "accepted");
  CHECK(w::explain(w::dsl::build_kernel<w::block<64>, w::inout<int>>(bumps)) == "accepted");
}
