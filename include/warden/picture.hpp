#pragma once
// Not included by warden.hpp (it costs every file that includes warden.hpp a fifth of a second of
// g++ for <map>): include <warden/picture.hpp> where pictures are drawn.
// w::picture(recording): an SVG picture of a recorded launch (w::record), to see who touched
// what. One band per buffer parameter and per shared tile (a tile of the first block that has a
// conflict, else of block 0), one row per barrier phase, one cell per element (the first
// `max_elements`). A cell stored in that phase is coloured by the storing thread (a hue per
// thread: neighbours differ), loaded only is grey, updated atomically only is dark grey. A cell
// where the recording found a conflict (a race, an atomic beside a plain access, a load of
// unwritten shared memory) has a red frame, carries class="conflict" and a tooltip with the
// conflict's words; the conflicts are listed under the bands. A picture of a clean launch has no
// red frame: tests/unit/recording_test.cpp checks both on a kernel and its broken variant.

#include <algorithm>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "backend/recording.hpp"

namespace warden {

struct picture_options {
  std::string title = "launch";
  std::vector<std::string> parameter_names;  // by position; "parameter i" where missing
  int max_elements = 128;                    // cells per row
  int max_conflicts_listed = 10;
};

namespace detail {
inline std::string svg_escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}
inline std::string thread_colour(int thread) {
  // Hues 137.5 degrees apart (the golden angle): consecutive threads never look alike.
  const int hue = static_cast<int>((static_cast<long long>(thread) * 1375 / 10) % 360);
  return "hsl(" + std::to_string(hue) + ",70%,55%)";
}
}  // namespace detail

inline std::string picture(const recording& r, const picture_options& options = {}) {
  using dsl::access_kind;
  using dsl::memory_kind;
  const std::vector<access_event>& events = r.events();
  const std::vector<conflict> conflicts = r.conflicts();

  // Shared tiles are per block: draw the first block with a conflict on a tile, else block 0.
  int shared_block = 0;
  for (const conflict& c : conflicts)
    if (c.first.memory == memory_kind::shared && c.kind != conflict_kind::barrier_divergence &&
        c.kind != conflict_kind::shuffle_divergence) {
      shared_block = c.first.block;
      break;
    }

  // A band: (memory, target). Per band and phase and element: who stored, loaded, updated.
  struct cell {
    int store_thread = -1, store_block = -1;
    bool loaded = false, atomic = false;
    std::string conflict;  // the first conflict's words, where one names this cell
  };
  using band_key = std::pair<int, int>;  // memory, target
  std::map<band_key, std::map<std::pair<int, long long>, cell>> bands;  // (phase, element) -> cell
  std::map<band_key, int> phases;
  for (const access_event& e : events) {
    if (e.memory == memory_kind::shared && e.block != shared_block) continue;
    if (e.index < 0 || e.index >= options.max_elements) {
      phases[{static_cast<int>(e.memory), e.target}];  // the band exists, its cells are cut
      continue;
    }
    const band_key key{static_cast<int>(e.memory), e.target};
    int& last_phase = phases[key];
    last_phase = std::max(last_phase, e.phase);
    cell& c = bands[key][{e.phase, e.index}];
    if (e.kind == access_kind::store) c.store_thread = e.thread, c.store_block = e.block;
    else if (e.kind == access_kind::atomic) c.atomic = true;
    else c.loaded = true;
  }
  int conflicts_drawn = 0;
  for (const conflict& c : conflicts) {
    if (c.kind == conflict_kind::barrier_divergence || c.kind == conflict_kind::shuffle_divergence) continue;
    for (const access_event* e : {&c.first, &c.second}) {
      if (e->memory == memory_kind::shared && e->block != shared_block) continue;
      if (e->index < 0 || e->index >= options.max_elements) continue;
      cell& at = bands[{static_cast<int>(e->memory), e->target}][{e->phase, e->index}];
      if (at.conflict.empty()) {
        at.conflict = c.describe();
        ++conflicts_drawn;
      }
    }
  }

  const int cell_size = 8, label_width = 170, row_gap = 2, band_gap = 18;
  const auto name_of = [&](const band_key& key) {
    if (key.first == static_cast<int>(memory_kind::shared))
      return "tile " + std::to_string(key.second) + " (block " + std::to_string(shared_block) + ")";
    const auto position = static_cast<std::size_t>(key.second);
    if (position < options.parameter_names.size() && !options.parameter_names[position].empty())
      return options.parameter_names[position];
    return "parameter " + std::to_string(key.second);
  };

  std::string body;
  int y = 40;
  for (const auto& [key, last_phase] : phases) {
    body += "<text x=\"4\" y=\"" + std::to_string(y - 4) + "\" font-weight=\"bold\">" + detail::svg_escape(name_of(key)) + "</text>\n";
    const auto& cells = bands[key];
    for (int phase = 0; phase <= last_phase; ++phase) {
      body += "<text x=\"12\" y=\"" + std::to_string(y + cell_size) + "\" font-size=\"9\">phase " + std::to_string(phase) + "</text>\n";
      for (int element = 0; element < options.max_elements; ++element) {
        const auto found = cells.find({phase, element});
        if (found == cells.end()) continue;
        const cell& c = found->second;
        std::string fill = c.store_thread >= 0 ? detail::thread_colour(c.store_thread + 1024 * std::max(0, c.store_block))
                           : c.atomic           ? std::string("#888")
                                                : std::string("#ccc");
        const int x = label_width + element * cell_size;
        body += "<rect x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\" width=\"" + std::to_string(cell_size - 1) +
                "\" height=\"" + std::to_string(cell_size - 1) + "\" fill=\"" + fill + "\"";
        if (!c.conflict.empty())
          body += " class=\"conflict\" stroke=\"red\" stroke-width=\"2\"><title>" + detail::svg_escape(c.conflict) + "</title></rect>\n";
        else
          body += "><title>element " + std::to_string(element) +
                  (c.store_thread >= 0 ? ", stored by thread " + std::to_string(c.store_thread) + " of block " + std::to_string(c.store_block)
                                       : std::string(c.atomic ? ", updated atomically" : ", loaded")) +
                  "</title></rect>\n";
      }
      y += cell_size + row_gap;
    }
    y += band_gap;
  }

  std::string legend = std::to_string(conflicts.size()) + " conflict(s)";
  body += "<text x=\"4\" y=\"" + std::to_string(y) + "\" fill=\"" + (conflicts.empty() ? "green" : "red") + "\">" + legend + "</text>\n";
  y += 14;
  for (std::size_t i = 0; i < conflicts.size() && static_cast<int>(i) < options.max_conflicts_listed; ++i) {
    body += "<text x=\"12\" y=\"" + std::to_string(y) + "\" font-size=\"10\">" + detail::svg_escape(conflicts[i].describe()) + "</text>\n";
    y += 13;
  }
  const int width = label_width + options.max_elements * cell_size + 10;
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(std::max(width, 700)) + "\" height=\"" +
                    std::to_string(y + 10) + "\" font-family=\"monospace\" font-size=\"11\" data-conflicts=\"" +
                    std::to_string(conflicts.size()) + "\" data-conflict-cells=\"" + std::to_string(conflicts_drawn) + "\">\n";
  svg += "<text x=\"4\" y=\"16\" font-size=\"13\">" + detail::svg_escape(options.title) +
         ": colour = the thread that stored the element in that phase; grey = loaded only; dark grey = atomic only; red frame = conflict</text>\n";
  return svg + body + "</svg>\n";
}

}  // namespace warden
