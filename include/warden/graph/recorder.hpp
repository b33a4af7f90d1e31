#pragma once
// graph_recorder: what warden::capture collects while its body runs (docs/guide.md "Graphs").
//
// A launch on a captured stream (memory/capture_registry.hpp finds its recorder) runs its
// launch-time checks as always, then records its buffer uses here instead of ordering them: its
// kernel runs only when the graph is replayed, so the replay orders itself after the buffers'
// other uses and records itself as their latest use. On a GPU the kernel call itself is captured
// by CUDA; on the cpu backend the recorder keeps the launch as a step to run at each replay.

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "../detail/program_names.hpp"
#include "../detail/source_location.hpp"
#include "../memory/capture_link.hpp"

namespace warden::detail {

// One buffer a captured launch uses.
struct captured_use {
  std::shared_ptr<capture_link> link;
  bool writes = false;
  std::string what;   // "the buffer bound to x of saxpy (launch 3 of the capture)", for E109
  std::string bound;  // "bound to x of saxpy in launch 3 of the capture", after the program's name
  source_location made_at{}, moved_at{};  // where the buffer was made and moved (buffer::program_name)
  // What E109 calls the buffer: the program's name where its lines give one (read only then).
  std::string described() const {
    std::string name = program_name(moved_at);
    if (name.empty()) name = program_name(made_at);
    return name.empty() ? what : name + " (" + bound + ")";
  }
};

class graph_recorder {
 public:
  explicit graph_recorder(bool on_gpu) : on_gpu_(on_gpu) {}

  bool on_gpu() const noexcept { return on_gpu_; }
  int launches() const noexcept { return launches_; }

  // A launch is being captured: its number, 1-based.
  int begin_launch() { return ++launches_; }

  // One of its buffers. A buffer used by several launches is kept once, writing if any use writes.
  void use(captured_use use) {
    for (captured_use& u : uses_)
      if (u.link == use.link) {
        u.writes = u.writes || use.writes;
        return;
      }
    uses_.push_back(std::move(use));
  }

  // A cpu-backend launch, to run at each replay.
  void step(std::function<void()> run) { steps_.push_back(std::move(run)); }

  std::vector<captured_use> take_uses() { return std::move(uses_); }
  std::vector<std::function<void()>> take_steps() { return std::move(steps_); }

 private:
  bool on_gpu_;
  int launches_ = 0;
  std::vector<captured_use> uses_;
  std::vector<std::function<void()>> steps_;
};

}  // namespace warden::detail
