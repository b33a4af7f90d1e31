#pragma once
// Host memory that a pool takes for device memory (space::device): the pool's device-side
// behaviour (a block freed on a stream is reused on that stream at once) tested without a GPU.
#include <string_view>

#include <warden/memory/host_resource.hpp>

namespace warden::testing {

class device_space_resource : public host_resource {
 public:
  using memory_space = space::device;
  using host_resource::host_resource;
  std::string_view name() const noexcept { return "device_space_resource"; }
};

}  // namespace warden::testing
