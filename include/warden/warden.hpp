#pragma once
// The umbrella header: everything warden offers.

#include "version.hpp"
#include "config.hpp"
#include "space.hpp"
#include "access.hpp"
#include "memory/element_ref.hpp"
#include "memory/host_view.hpp"
