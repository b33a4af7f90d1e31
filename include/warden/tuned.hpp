#pragma once
// Tuned kernels: one body, several candidate configurations, and the fastest one for each problem
// key, measured on the first launch with that key and kept (in memory and in a cache on disk).
//
//   WARDEN_TUNED(scale, w::tuned<w::in<float>, w::out<float>, w::value<float>>(
//       [](auto k, auto x, auto y, auto a) {
//         auto i = k.global_id();
//         return w::when(i < x.size(), y[i] = a * x[i]);
//       },
//       w::candidates<w::block<128>, w::block<256>, w::block<512>>));
//
//   w::launch(scale, w::grid_for(n), x, y, 2.f);   // first time for this key: times each candidate
//
// Every candidate is a kernel of its own, checked as any other: one the checker rejects is never
// compiled, let alone timed. It is dropped, with a warning that names it and the code (the build
// fails when none is left). A candidate that the launch-time checks refuse for a launch (E101-E104,
// E106, E107), or that the GPU cannot run with that shape, is skipped for that launch, and the
// report says why. Timing runs the kernel on the caller's arguments and stream: every buffer the
// kernel may write is saved first and restored before each run (tuning/snapshot.hpp), so the caller
// sees exactly one launch. The key (tuning/tune_key.hpp) defaults to the buffers' sizes and the
// integral values, each rounded up to a power of two; .keyed(f) gives another. Later launches
// with a key already measured cost one lookup. Choices persist across processes in the tuning
// cache (tuning/cache_file.hpp, tuning/settings.hpp); WARDEN_TUNING=off uses the first candidate.
//
// This header needs Boost.Hana (the candidate list is a hana::tuple_t, walked with
// hana::for_each), so warden/warden.hpp does not include it.

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <cstddef>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

#include <boost/hana/bool.hpp>
#include <boost/hana/filter.hpp>
#include <boost/hana/for_each.hpp>
#include <boost/hana/front.hpp>
#include <boost/hana/length.hpp>
#include <boost/hana/tuple.hpp>
#include <boost/hana/type.hpp>

#include "error.hpp"
#include "kernel.hpp"
// The candidates are filtered by their verdicts, so the checker comes too, even where the precheck's
// table stands for it in w::kernel (WARDEN_CHECKED_TABLE).
#include "check/verdict.hpp"
#include "launch.hpp"
#include "memory/capture_registry.hpp"
#include "profile/nvtx.hpp"
#include "tuning/cache_file.hpp"
#include "tuning/candidate.hpp"
#include "tuning/settings.hpp"
#include "tuning/snapshot.hpp"
#include "tuning/timer.hpp"
#include "tuning/tune_key.hpp"

namespace warden {

// The candidates of a tuned kernel, in order of preference: the first runs when tuning is off.
// Each is a w::block<...> or a w::candidate<w::block<...>, constants...>.
template <class... Candidates>
inline constexpr auto candidates = boost::hana::tuple_t<detail::as_candidate<Candidates>...>;

// What WARDEN_TUNED declares: the body, its parameters, the candidates and the key.
template <class Body, class Key, class Candidates, class... Params>
struct tuned_definition {
  using candidate_list = Candidates;
  static constexpr std::size_t arity = sizeof...(Params);
  template <std::size_t I>
  using param = std::tuple_element_t<I, std::tuple<Params...>>;

  Key key{};
  int warmup_runs = 1;  // per candidate, untimed; at least 1
  int timed_runs = 5;   // per candidate; the median counts

  // The key of a launch: `f(args...)` returns a w::tune_key (a few integers) from the launch's
  // arguments. f must not capture.
  template <class F>
  constexpr tuned_definition<Body, F, Candidates, Params...> keyed(F f) const {
    return {f, warmup_runs, timed_runs};
  }
  // How many runs each candidate gets when a key is measured (at least one of each).
  constexpr tuned_definition runs(int timed, int warmup = 1) const {
    tuned_definition copy = *this;
    copy.timed_runs = timed < 1 ? 1 : timed;
    copy.warmup_runs = warmup < 1 ? 1 : warmup;  // the warm-up is where a refused candidate is found
    return copy;
  }

  // What the checker says of candidate C: none, or the code of its first finding.
  template <class C>
  static constexpr diagnostic::code verdict =
      check::verdict_on_body<typename C::block_type, detail::candidate_body<Body, C>, Params...>::value.finding.code;

  // The checker's verdict on candidate C, as w::kernel reads it (check::verdict_on_body).
  template <class C>
  using verdict_source = check::verdict_on_body<typename C::block_type, detail::candidate_body<Body, C>, Params...>;

  // The kernel of candidate C (checked: only accepted candidates are asked for).
  template <class C>
  static constexpr auto candidate_definition(std::string_view name, std::string_view source) {
    return dsl::with_source(kernel<typename C::block_type, Params...>(detail::candidate_body<Body, C>{}).named(name), source);
  }
};

// tuned<params...>(body, candidates<...>): the body is written once, for any candidate's block
// (k.block_dim() is the candidate's); a body that takes template arguments receives each
// candidate's constants.
template <class... Params, class Body, class Candidates>
constexpr auto tuned(Body, Candidates) {
  static_assert(std::is_default_constructible_v<Body>,
                "warden::tuned: the body must be a lambda without captures (each candidate rebuilds it from its type)");
  static_assert(decltype(boost::hana::length(Candidates{}))::value > 0, "warden::tuned: list at least one candidate");
  return tuned_definition<Body, detail::default_tune_key, Candidates, Params...>{};
}

namespace detail {

// The warning that names a candidate the checker rejects: the candidate and the code of the
// rejection are this class's template arguments, which every compiler prints with the warning.
template <class Candidate, diagnostic::code Code>
struct tuned_candidate_dropped {
  [[deprecated("warden::tuned drops this candidate: the checker rejects it (the code is the second template "
               "argument; define the kernel with w::kernel and this block to see the diagnostic); the other "
               "candidates are tuned")]] static constexpr int note() {
    return 0;
  }
};

// The one error of a tuned kernel whose every candidate the checker rejects: the first candidate's
// diagnostic, as w::kernel gives it (its code, the buffer or tile and the statement in the body's
// names), its explanation opened by the kernel and the candidate ("scale_tuned, candidate
// block<128> (every candidate is rejected; the first): ..."). Raised as w::kernel raises one (a
// type named in the constructor: kernel.hpp), so that nothing after it adds an error of its own (the launch binds nothing
// for such a kernel: tuned_arguments_bind).
template <class Tag, class Candidate, class Source>
struct every_candidate_rejected {
  static constexpr check::verdict value = [] {
    check::verdict v = Source::value;
    detail::text_buffer t;
    using B = typename Candidate::block_type;
    t << Tag::kernel << ", candidate block<" << B::x;
    if constexpr (B::y > 1 || B::z > 1) t << ", " << B::y;
    if constexpr (B::z > 1) t << ", " << B::z;
    t << ">";
    if constexpr (Candidate::constant_count > 0) t << " and its constants";
    t << " (every candidate is rejected; the first): ";
    // The candidate's text whole; where the opening leaves no room for it, without its checked fix,
    // which cut short would be no fix (the candidate as a w::kernel prints it whole).
    std::string_view text(Source::value.text.data, static_cast<std::size_t>(Source::value.text.size));
    if (t.size + static_cast<int>(text.size()) >= detail::text_buffer::capacity) {
      const std::size_t fix = text.find("; checked fix: ");
      if (fix != std::string_view::npos) text = text.substr(0, fix);
    }
    t << text;
    v.text = t;
    return v;
  }();
};

template <class Definition, bool Accepted>
struct candidate_filter {
  template <class T>
  constexpr auto operator()(T) const {
    return boost::hana::bool_c<((Definition::template verdict<typename T::type> == diagnostic::code::none) == Accepted)>;
  }
};

// A tuned kernel's choices in this process: per device (-1 the cpu backend, else the CUDA device
// ordinal), by key. A choice measured on one device is never used on another.
struct tuning_table {
  struct device_choices {
    std::unordered_map<tune_key, int, tune_key_hash> choices;
    bool file_read = false;
  };
  std::mutex mutex;
  std::map<int, device_choices> devices;
  std::vector<std::pair<int, tune_key>> measuring;  // keys a thread is measuring now
  int last_device = -1;                             // where choice() looks
  std::string report;
  bool off_reported = false;

  int find(int device, const tune_key& key) {
    std::lock_guard lock(mutex);
    last_device = device;
    const auto d = devices.find(device);
    if (d == devices.end()) return -1;
    const auto it = d->second.choices.find(key);
    return it == d->second.choices.end() ? -1 : it->second;
  }
  void clear() {
    std::lock_guard lock(mutex);
    devices.clear();
    report.clear();
    off_reported = false;
  }
};

// Every tuned kernel's table, for tuning::clear_cache.
struct tuning_tables {
  std::mutex mutex;
  std::vector<tuning_table*> tables;
  static tuning_tables& instance() {
    static tuning_tables* all = new tuning_tables;  // never destroyed, as the tables
    return *all;
  }
};
inline void register_tuning_table(tuning_table* t) {
  auto& all = tuning_tables::instance();
  std::lock_guard lock(all.mutex);
  all.tables.push_back(t);
}
inline void forget_all_tuning_tables() {
  auto& all = tuning_tables::instance();
  std::lock_guard lock(all.mutex);
  for (tuning_table* t : all.tables) t->clear();
}

// Refusals that depend on the candidate (its block shape): the launch is refused before any
// memory is touched, so tuning skips the candidate and goes on.
template <class Run>
bool refused_for_candidate(Run&& run, std::string& why) {
  try {
    std::forward<Run>(run)();
    return false;
  } catch (const bounds_error& e) {
    why = e.what();
  } catch (const grid_error& e) {
    why = e.what();
  } catch (const loop_error& e) {
    why = e.what();
  } catch (const wrap_error& e) {
    why = e.what();
  } catch (const obligation_error& e) {
    why = e.what();
  } catch (const fact_error& e) {
    why = e.what();
  } catch (const cuda_error& e) {
#if WARDEN_CUDA_RUNTIME
    // Too many registers or threads for this shape on this GPU: nothing ran.
    if (e.code() != cudaErrorLaunchOutOfResources && e.code() != cudaErrorInvalidConfiguration) throw;
    why = e.what();
#else
    throw;
#endif
  }
  return true;
}

inline std::string format_ms(double ms) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g ms", ms);
  return text;
}

}  // namespace detail

// A kernel declared with WARDEN_TUNED: launch it as any kernel (w::launch, w::launch(w::on_cpu, ...)).
template <class Tag>
class tuned_kernel {
  using definition_type = std::remove_cvref_t<decltype(Tag::definition)>;
  static constexpr auto all = typename definition_type::candidate_list{};
  static constexpr auto kept = boost::hana::filter(all, detail::candidate_filter<definition_type, true>{});
  static constexpr auto rejected = boost::hana::filter(all, detail::candidate_filter<definition_type, false>{});

 public:
  // How many candidates the checker accepted.
  static constexpr std::size_t size = decltype(boost::hana::length(kept))::value;

  // The kernel of candidate C, as WARDEN_KERNEL would declare it.
  template <class C>
  using kernel_for = dsl::named_kernel<typename Tag::template holder<C>>;

  constexpr tuned_kernel() {
    if constexpr (size == 0) {
      // Every candidate rejected: one error, the first candidate's diagnostic.
      using first = typename std::remove_cvref_t<decltype(boost::hana::front(all))>::type;
      using refusal = detail::every_candidate_rejected<Tag, first, typename definition_type::template verdict_source<first>>;
      using diagnostic_raised [[maybe_unused]] = decltype(typename check::report<refusal, true>::type{});
    } else {
#if !defined(WARDEN_TUNING_NOTES) || WARDEN_TUNING_NOTES
      boost::hana::for_each(rejected, [](auto t) {
        using C = typename decltype(t)::type;
        (void)detail::tuned_candidate_dropped<C, definition_type::template verdict<C>>::note();
      });
#endif
    }
  }

  std::string_view name() const { return Tag::kernel; }

  // The candidates the checker accepted, by name, in order.
  static std::vector<std::string> candidates() {
    std::vector<std::string> out;
    boost::hana::for_each(kept, [&](auto t) { out.push_back(decltype(t)::type::name()); });
    return out;
  }
  // The candidates the checker rejected: "block<1024>: W010".
  static std::vector<std::string> dropped() {
    std::vector<std::string> out;
    boost::hana::for_each(rejected, [&](auto t) {
      using C = typename decltype(t)::type;
      out.push_back(C::name() + ": " + diagnostic::to_string(definition_type::template verdict<C>));
    });
    return out;
  }

  // The key these arguments launch with.
  template <class... Args>
  static tune_key key_of(const Args&... args) {
    return Tag::definition.key(args...);
  }
  // The candidate this process would launch for these arguments' key without measuring: one
  // measured (or read from the cache) already, else none.
  template <class... Args>
  // (on the device, or the cpu backend, this kernel last launched on).
  static std::optional<std::string> choice(const Args&... args) {
    auto& t = table();
    int device = 0;
    {
      std::lock_guard lock(t.mutex);
      device = t.last_device;
    }
    const int index = t.find(device, key_of(args...));
    if (index < 0) return std::nullopt;
    return candidates()[static_cast<std::size_t>(index)];
  }
  // What the last measurement (or cache read, or fallback) did, in words.
  static std::string report() {
    auto& t = table();
    std::lock_guard lock(t.mutex);
    return t.report;
  }
  // Forgets this process's choices (the cache on disk stays: tuning::clear_cache).
  static void forget() { table().clear(); }

  static detail::tuning_table& table() {
    static detail::tuning_table* t = [] {
      auto* made = new detail::tuning_table;  // never destroyed: static destructors may still launch
      detail::register_tuning_table(made);
      return made;
    }();
    return *t;
  }

  // Calls f(kernel_for<C>{}) for the index-th accepted candidate.
  template <class F>
  static void dispatch(int index, F&& f) {
    int i = 0;
    boost::hana::for_each(kept, [&](auto t) {
      if (i++ == index) f(kernel_for<typename decltype(t)::type>{});
    });
  }
  template <class F>
  static void for_each_candidate(F&& f) {
    boost::hana::for_each(kept, [&](auto t) { f(kernel_for<typename decltype(t)::type>{}); });
  }

  static const auto& definition() { return Tag::definition; }
  static constexpr auto kept_types() { return kept; }
};

namespace detail {

// The arguments bind as the first candidate's (all share the parameters): else launch's own
// diagnostics (W002, the wrong count) and nothing of the tuner's machinery.
template <class Tag, class... Args>
constexpr bool tuned_arguments_bind() {
  if constexpr (tuned_kernel<Tag>::size == 0) {
    return false;  // every candidate rejected: reported once, where the kernel is declared
  } else {
    using first = typename std::remove_cvref_t<decltype(boost::hana::front(tuned_kernel<Tag>::kept_types()))>::type;
    return arguments_bind<typename tuned_kernel<Tag>::template kernel_for<first>, Args...>();
  }
}

// The lambdas below capture the caller's launcher; where that is a lambda of an unnamed namespace
// (a benchmark's), g++ warns that types of this header hold a type of internal linkage. They are
// local to one instantiation and never cross a translation unit.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsubobject-linkage"
#endif

// Where a launch runs, as the tables key it: -1 for the cpu backend, else the current CUDA device.
inline int tuning_device_id(bool on_gpu) {
#if WARDEN_CUDA_RUNTIME
  int device = 0;
  if (on_gpu && cudaGetDevice(&device) == cudaSuccess) return device;
  if (on_gpu) cudaGetLastError();
#else
  (void)on_gpu;
#endif
  return -1;
}

// In the timer's namespace (tuning/timer.hpp): a .cu and a .cpp file that launch one tuned kernel
// alike get two functions, each with its own mode's timer.
inline namespace WARDEN_TUNING_TIMER_ABI {

// A tuned launch: the choice for the arguments' key, measured first if there is none.
// launch_one(kernel, config) launches one candidate on the right backend; on_gpu says whether it
// runs on the GPU (events time it) or the cpu backend (the host clock does).
template <class Tag, class LaunchOne, class... Args>
void launch_tuned(const launch_config& config, bool on_gpu, LaunchOne&& launch_one, Args&... args) {
  using T = tuned_kernel<Tag>;
  auto launch_candidate = [&](int index) { T::dispatch(index, [&](auto k) { launch_one(k, config); }); };
  tuning_table& table = T::table();
  if (!tuning::enabled()) {  // the first candidate, at the cost of one flag
    {
      std::lock_guard lock(table.mutex);
      if (!table.off_reported) table.report = std::string(Tag::kernel) + ": " + T::candidates()[0] + " (the first candidate): tuning is off";
      table.off_reported = true;
    }
    return launch_candidate(0);
  }
  const auto& definition = Tag::definition;
  const tune_key key = definition.key(std::as_const(args)...);
  const int device_id = tuning_device_id(on_gpu);
  if (const int chosen = table.find(device_id, key); chosen >= 0) {
    // The choice was measured at another size of this key's bucket: where the launch-time checks
    // refuse it for this one, this launch is measured instead (its refusals skipped).
    std::string refused;
    if (!refused_for_candidate([&] { launch_candidate(chosen); }, refused)) return;
  }

  const std::string kernel(Tag::kernel);
  const std::vector<std::string> names = T::candidates();
  auto set_report = [&](std::string text) {
    std::lock_guard lock(table.mutex);
    table.report = std::move(text);
  };
  auto first = [&](const std::string& why) {
    set_report(kernel + ", key " + key.text() + ": " + names[0] + " (the first candidate): " + why);
    launch_candidate(0);
  };
  if (being_captured(config.stream()))
    return first("the stream is being captured, and timing would add every run to the graph");

  const std::string device = tuning_device(on_gpu);
  const tuning_cache_file file(tuning::cache_directory(), kernel, Tag::source, device, names);
  {
    std::unique_lock lock(table.mutex);
    tuning_table::device_choices& mine = table.devices[device_id];
    if (!mine.file_read) {
      mine.file_read = true;
      for (const auto& e : file.read()) mine.choices.emplace(e.key, e.candidate);
    }
    if (const auto it = mine.choices.find(key); it != mine.choices.end()) {
      const int chosen = it->second;
      std::string refused;
      lock.unlock();
      if (!refused_for_candidate([&] { launch_candidate(chosen); }, refused)) {
        set_report(kernel + ", key " + key.text() + ": " + names[static_cast<std::size_t>(chosen)] + ", read from " +
                   file.path().string());
        return;
      }
      lock.lock();
    }
    // Another thread measuring this key would time against this one's runs: run the first
    // candidate and leave the choice to it.
    const std::pair<int, tune_key> job{device_id, key};
    if (std::find(table.measuring.begin(), table.measuring.end(), job) != table.measuring.end()) {
      lock.unlock();
      return launch_candidate(0);
    }
    table.measuring.push_back(job);
  }
  struct measuring_done {
    tuning_table& table;
    std::pair<int, tune_key> job;
    ~measuring_done() {
      std::lock_guard lock(table.mutex);
      std::erase(table.measuring, job);
    }
  } done{table, {device_id, key}};

  // Measure. Nothing has been launched yet: a snapshot that does not fit is no loss, and the
  // first candidate is kept for this key in this process (not on disk), so that later launches
  // do not try again.
  const nvtx_range range([&](range_text& t) { t.add("warden::tuned ").add(Tag::kernel).add(": measuring key ").add(key.text()); });
  const stream_ref s = config.stream();
  std::optional<launch_snapshot<std::remove_cvref_t<decltype(Tag::definition)>, Args...>> snapshot;
  try {
    snapshot.emplace(s, args...);
  } catch (const out_of_memory& e) {
    {
      std::lock_guard lock(table.mutex);
      table.devices[device_id].choices[key] = 0;
    }
    return first(std::string("no memory to save the writable arguments while timing: ") + e.what());
  }
  tuning_timer timer(on_gpu, s);
  std::vector<double> median(T::size, -1.0);
  std::vector<std::string> skipped(T::size);
  for (int c = 0; c < static_cast<int>(T::size); ++c) {
    T::dispatch(c, [&](auto k) {
      std::string why;
      // The warm-up runs find the launches the checks refuse (at least one runs: tuned_definition::runs).
      const bool refused = refused_for_candidate(
          [&] {
            for (int w = 0; w < definition.warmup_runs; ++w) {
              snapshot->restore(args...);
              launch_one(k, config);
            }
          },
          why);
      if (refused) {
        skipped[static_cast<std::size_t>(c)] = why;
        return;
      }
      std::vector<double> times;
      for (int r = 0; r < definition.timed_runs; ++r) {
        snapshot->restore(args...);
        times.push_back(timer.time_ms([&] { launch_one(k, config); }));
      }
      std::sort(times.begin(), times.end());
      median[static_cast<std::size_t>(c)] = times[times.size() / 2];
    });
  }
  int best = -1;
  for (int c = 0; c < static_cast<int>(T::size); ++c)
    if (median[static_cast<std::size_t>(c)] >= 0 && (best < 0 || median[static_cast<std::size_t>(c)] < median[static_cast<std::size_t>(best)]))
      best = c;
  snapshot->restore(args...);
  if (best < 0) {
    // Every candidate is refused for this launch: the first one's refusal is the launch's.
    set_report(kernel + ", key " + key.text() + ": every candidate is refused for this launch");
    launch_candidate(0);
    return;  // (not reached: the launch above throws the refusal)
  }
  launch_candidate(best);

  std::string text = kernel + ", key " + key.text() + ", measured on " + device + ":";
  for (std::size_t c = 0; c < T::size; ++c) {
    text += (c ? "; " : " ") + names[c] + " ";
    text += median[c] >= 0 ? format_ms(median[c]) : "skipped: " + skipped[c];
    if (static_cast<int>(c) == best) text += " (chosen)";
  }
  for (const std::string& d : T::dropped()) text += "; " + d.substr(0, d.find(':')) + " dropped at compile time (" + d.substr(d.find(':') + 2) + ")";
  const std::string unsaved = file.write(key, best);
  if (!unsaved.empty() && file.persistent()) text += "; not saved: " + unsaved;
  {
    std::lock_guard lock(table.mutex);
    table.devices[device_id].choices[key] = best;
    table.report = std::move(text);
  }
}

}  // inline namespace WARDEN_TUNING_TIMER_ABI

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

}  // namespace detail

inline namespace WARDEN_TUNING_TIMER_ABI {

// A tuned kernel on the default backend.
template <class Tag, class... Args>
void launch(const tuned_kernel<Tag>&, const launch_config& config, Args&&... args) {
#if WARDEN_DEVICE_PASS
  // nvcc's device pass: every candidate's entry, as the host pass may launch any of them, and the
  // kernel that holds the stream while a run is timed (tuning/timer.hpp): the device pass does not
  // compile the host path that launches it, so it would not be emitted.
  tuned_kernel<Tag>::for_each_candidate([&](auto k) { ::warden::launch(k, config, args...); });
  (void)&detail::tuning_hold<>;
#else
  bool on_gpu = false;
#if defined(__CUDACC__)
  on_gpu = detail::cuda_device_available();
#endif
  if constexpr (detail::tuned_arguments_bind<Tag, Args...>())
    detail::launch_tuned<Tag>(config, on_gpu, [&](auto k, const launch_config& c) { ::warden::launch(k, c, args...); },
                              args...);
#endif
}

// A tuned kernel on the cpu reference backend (timed by the host clock).
template <class Tag, class... Args>
void launch(on_cpu_t, const tuned_kernel<Tag>&, const launch_config& config, Args&&... args) {
  if constexpr (detail::tuned_arguments_bind<Tag, Args...>())
    detail::launch_tuned<Tag>(config, false, [&](auto k, const launch_config& c) { ::warden::launch(on_cpu, k, c, args...); },
                              args...);
}

}  // inline namespace WARDEN_TUNING_TIMER_ABI

namespace tuning {

// Forgets every tuned kernel's choices in this process and removes the cache's files.
inline void clear_cache() {
  detail::forget_all_tuning_tables();
  const std::filesystem::path dir = cache_directory();
  if (dir.empty()) return;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string file = it->path().filename().string();
    if (file.find(".wtune") != std::string::npos) std::filesystem::remove(it->path(), ec);
  }
}

}  // namespace tuning

}  // namespace warden

// WARDEN_TUNED(name, w::tuned<params...>(body, w::candidates<...>)[.keyed(f)][.runs(n)]):
// declares the tuned kernel `name` at namespace scope, named "name" in messages, each candidate
// a kernel with zero-cost CUDA launches (dsl::named_kernel, as WARDEN_KERNEL's).
#define WARDEN_TUNED(name, ...)                                                                      \
  struct name##_warden_source {                                                                      \
    static constexpr ::std::string_view text = #__VA_ARGS__;                                         \
    static constexpr ::std::string_view kernel = #name;                                              \
  };                                                                                                 \
  struct name##_warden_tuned {                                                                       \
    friend name##_warden_source warden_kernel_source(auto);                                          \
    static constexpr auto definition = (__VA_ARGS__);                                                \
    static constexpr ::std::string_view kernel = #name;                                              \
    static constexpr ::std::string_view source = name##_warden_source::text;                         \
    template <class Candidate>                                                                       \
    struct holder {                                                                                  \
      static constexpr auto definition =                                                             \
          name##_warden_tuned::definition.template candidate_definition<Candidate>(#name, name##_warden_source::text); \
    };                                                                                               \
  };                                                                                                 \
  inline constexpr ::warden::tuned_kernel<name##_warden_tuned> name {}
