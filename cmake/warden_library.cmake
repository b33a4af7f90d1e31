# The warden::warden INTERFACE target, its install rules and the exported package config.

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# Boost.Hana is header-only; Debian 12 ships Boost 1.74 with BoostConfig.cmake.
find_package(Boost 1.74 REQUIRED)

add_library(warden INTERFACE)
add_library(warden::warden ALIAS warden)
target_include_directories(warden INTERFACE
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
target_link_libraries(warden INTERFACE Boost::headers)
target_compile_features(warden INTERFACE cxx_std_20)
# CMake 3.25 does not know nvcc 13's language levels (no cuda_std_20 feature), so the flag is
# spelled out. Relaxed constexpr lets device code call the constexpr helpers the checker shares
# with the host; extended lambdas let kernel bodies be lambdas.
target_compile_options(warden INTERFACE
  $<$<COMPILE_LANGUAGE:CUDA>:-std=c++20 --expt-relaxed-constexpr --extended-lambda>)
# The checker enumerates every thread of a block in constant evaluation; the compilers' default
# budgets (g++ 2^25 operations, clang 2^20 steps) stop it on real kernels. docs/benchmarks.md has
# what the check costs.
# nvcc runs the check in its front end (whose default cost limit stops a 256-thread bitonic sort)
# and again in the host compiler (g++ here).
target_compile_options(warden INTERFACE
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:GNU>>:-fconstexpr-ops-limit=4294967295>
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CXX_COMPILER_ID:Clang>>:-fconstexpr-steps=2147483647>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcudafe=--max_cost_constexpr_call=2000000000 -Xcompiler=-fconstexpr-ops-limit=4294967295>)

if(NOT WARDEN_INSTALL)
  return()
endif()

set(WARDEN_CMAKE_DIR "${CMAKE_INSTALL_DATADIR}/cmake/warden")   # header-only: arch-independent
install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/warden" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
install(TARGETS warden EXPORT warden-targets)
install(EXPORT warden-targets NAMESPACE warden:: DESTINATION "${WARDEN_CMAKE_DIR}")
configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/warden-config.cmake.in"
  "${PROJECT_BINARY_DIR}/warden-config.cmake" INSTALL_DESTINATION "${WARDEN_CMAKE_DIR}")
write_basic_package_version_file("${PROJECT_BINARY_DIR}/warden-config-version.cmake"
  COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES "${PROJECT_BINARY_DIR}/warden-config.cmake" "${PROJECT_BINARY_DIR}/warden-config-version.cmake"
  DESTINATION "${WARDEN_CMAKE_DIR}")
