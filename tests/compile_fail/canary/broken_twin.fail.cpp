// Canary for the twins' batch (compile_fail.twins.<compiler>): a twin that does not compile even
// without the defect. Batched with a good twin, the batch must fail and name this file.
#include <warden/warden.hpp>

int main() {
  undeclared_in_this_twin = 1;
  return 0;
}
