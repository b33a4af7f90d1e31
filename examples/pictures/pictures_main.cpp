// Records each example's kernel and its broken variant (example_recordings.hpp), checks that every
// broken variant's recording shows a conflict and every shipped kernel's none, and, given a folder,
// writes the pictures there: examples/<name>/<name>.svg and <name>_broken.svg (scripts/pictures).
//   example_pictures                        records and checks the conflicts
//   example_pictures --check EXAMPLES_DIR   and that the pictures there are the ones drawn now
//   example_pictures --write EXAMPLES_DIR   and writes them there
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include <warden/picture.hpp>

#include "example_recordings.hpp"

namespace {

std::string drawn(const pictures::example_recording& e, bool broken) {
  warden::picture_options options;
  options.title = e.example + (broken ? " (broken variant: " + e.code + ")" : std::string(" (as shipped)"));
  options.parameter_names = e.parameters;
  return warden::picture(e.recording, options);
}

// The conflicts each code's rule is about, as the recording names them: a broken variant must show
// one of its own code's, not merely some conflict.
bool conflict_fits(const std::string& code, warden::conflict_kind kind) {
  using k = warden::conflict_kind;
  if (code == "W030") return kind == k::barrier_divergence;
  if (code == "W031") return kind == k::barrier_divergence || kind == k::shuffle_divergence;
  if (code == "W022") return kind == k::uninitialised_shared_load;
  if (code == "W040") return kind == k::atomic_plain || kind == k::write_write || kind == k::read_write;
  if (code == "W010" || code == "W012") return kind == k::write_write || kind == k::read_write;
  // W020, W021: a store and a load of a tile with no barrier between them. The recorder runs a
  // phase's threads one after another, so the load may come first: a load of unwritten memory.
  return kind == k::write_write || kind == k::read_write || kind == k::uninitialised_shared_load;
}

bool write(const std::string& path, const std::string& svg) {
  std::ofstream out(path);
  out << svg;
  return static_cast<bool>(out);
}

// The picture in the repository must be the one this program draws: a README shows what the
// kernel does, not what it did before its last change.
bool same_as(const std::string& path, const std::string& svg) {
  std::ifstream in(path);
  const std::string kept((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (kept == svg) return true;
  std::printf("  %s is %s: run scripts/pictures\n", path.c_str(), in ? "out of date" : "missing");
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc == 3 ? argv[1] : "";
  if (argc != 1 && mode != "--write" && mode != "--check") {
    std::fprintf(stderr, "usage: example_pictures [--check|--write EXAMPLES_DIR]\n");
    return 2;
  }
  const auto fixed = pictures::record_examples_fixed();
  const auto broken = pictures::record_examples_broken();
  bool good = fixed.size() == broken.size() && !fixed.empty();
  for (std::size_t i = 0; i < fixed.size() && i < broken.size(); ++i) {
    const std::string name = fixed[i].example;
    const std::size_t clean = fixed[i].recording.conflicts().size(), found = broken[i].recording.conflicts().size();
    const std::string fixed_svg = drawn(fixed[i], false), broken_svg = drawn(broken[i], true);
    // The picture carries what the recording found: a conflict is drawn (a red frame) or listed.
    const bool fixed_clean = clean == 0 && fixed_svg.find("data-conflicts=\"0\"") != std::string::npos &&
                             fixed_svg.find("class=\"conflict\"") == std::string::npos;
    const auto conflicts = broken[i].recording.conflicts();
    std::size_t fitting = 0;
    for (const warden::conflict& c : conflicts) fitting += conflict_fits(broken[i].code, c.kind);
    const bool broken_shows = fitting > 0 && broken_svg.find("data-conflicts=\"0\"") == std::string::npos &&
                              broken_svg.find(" conflict(s)") != std::string::npos;
    std::printf("%-15s as shipped: %zu conflict(s) -> %s; broken (%s): %zu conflict(s), %zu of its kind, the first a %s%s -> %s\n", name.c_str(),
                clean, fixed_clean ? "OK" : "WRONG", broken[i].code.c_str(), found, fitting,
                conflicts.empty() ? "(none)" : warden::to_string(conflicts.front().kind),
                broken_svg.find("class=\"conflict\"") != std::string::npos ? ", drawn" : ", listed",
                broken_shows ? "OK" : "WRONG");
    good = good && fixed_clean && broken_shows && broken[i].example == name;
    if (mode == "--write" || mode == "--check") {
      const std::string folder = std::string(argv[2]) + "/" + name + "/";
      const auto keep = mode == "--write" ? write : same_as;
      const bool kept_fixed = keep(folder + name + ".svg", fixed_svg);
      const bool kept_broken = keep(folder + name + "_broken.svg", broken_svg);
      good = good && kept_fixed && kept_broken;
    }
  }
  std::printf("example pictures: %s\n", good ? "every broken variant shows its conflict, every shipped kernel none" : "MISMATCH");
  return good ? 0 : 1;
}
