// The translation unit that builds the unit tests' shared precompiled header
// (cmake/warden_testing.cmake, warden_unit_pch); it defines nothing.
