// Catch2's runner, compiled once and linked into every unit and GPU test executable.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

// A GPU test (tests/gpu) links tests/support/gpu_main.cpp, which defines this: 0 to run, or the
// exit code that makes CTest report the test as skipped when no device is present. Everywhere else
// it is undefined (a weak reference is null), and every test runs. One runner for both keeps
// Catch2's implementation, the costliest file of the test support, compiled once.
int warden_test_skip_code(int argc, char* argv[]) __attribute__((weak));

int main(int argc, char* argv[]) {
  if (warden_test_skip_code != nullptr)
    if (const int code = warden_test_skip_code(argc, argv); code != 0) return code;
  return Catch::Session().run(argc, argv);
}
