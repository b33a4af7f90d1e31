// Compiled against the installed headers only: the umbrella header and Boost.Hana must both be
// found through warden::warden's usage requirements.
#include <warden/warden.hpp>

#include <boost/hana/equal.hpp>
#include <boost/hana/integral_constant.hpp>

#include <cstdio>
#include <vector>

int main() {
  std::vector<int> data{1, 2, 3};
  auto rw = warden::view_of<warden::access::read_write>(data);
  rw[0] += 41;
  static_assert(warden::device_accessible<warden::space::pinned>);
  static_assert(boost::hana::int_c<2> == boost::hana::int_c<2>);
  std::printf("consumer: warden %d.%d.%d, data[0] = %d\n", warden::version_major,
              warden::version_minor, warden::version_patch, data[0]);
  return data[0] == 42 ? 0 : 1;
}
