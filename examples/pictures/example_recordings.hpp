#pragma once
// One recorded launch per example (w::record on the cpu backend), at a size small enough to draw:
// the kernels as shipped (record_examples_fixed, example_recordings_fixed.cpp) and their broken
// variants (record_examples_broken, example_recordings_broken.cpp: the same headers with
// WARDEN_DEFECT). Both files are compiled with WARDEN_RECORD_ONLY: the broken variants do not pass
// the checker (that is their point), so they are built without it and can only be recorded.
#include <string>
#include <vector>

#include <warden/backend/recording.hpp>

namespace pictures {

struct example_recording {
  std::string example;                   // the folder under examples/
  std::string code;                      // the code its broken variant fails to compile with
  std::vector<std::string> parameters;   // the kernel's parameter names, for the picture
  warden::recording recording;
};

std::vector<example_recording> record_examples_fixed();
std::vector<example_recording> record_examples_broken();

}  // namespace pictures
