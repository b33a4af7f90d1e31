#pragma once
// The umbrella header: everything warden offers.

#include "version.hpp"
#include "config.hpp"
#include "space.hpp"
#include "access.hpp"
#include "memory/element_ref.hpp"
#include "memory/host_view.hpp"
#include "error.hpp"
#include "runtime.hpp"
#include "stream.hpp"
#include "memory/stream_clock.hpp"
#include "memory/upstream_resource.hpp"
#include "memory/host_resource.hpp"
#include "memory/cuda_resources.hpp"
#include "memory/size_class.hpp"
#include "memory/pool_stats.hpp"
#include "memory/memory_pool.hpp"
#include "memory/default_pool.hpp"
#include "memory/buffer.hpp"
#include "memory/transfer.hpp"
#include "memory/buffer_view.hpp"
#include "kernel.hpp"
// Where the precheck's table stands for the checker (WARDEN_CHECKED_TABLE: nvcc's phases of a file
// warden_host_precheck checked), w::explain, which runs the checker, comes only with its own
// header: #include <warden/explain.hpp>.
#if !defined(WARDEN_CHECKED_TABLE)
#include "explain.hpp"
#endif
#include "dsl/math.hpp"
#include "launch.hpp"
#include "graph.hpp"
