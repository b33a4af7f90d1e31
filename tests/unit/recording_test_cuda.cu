// recording_test.cpp compiled by nvcc: every kernel of it must build for the device as well.
#include "recording_test.cpp"
