// The examples' kernels as shipped, built without the checker (their own builds check them) so
// that this file costs little: see example_recordings.hpp.
#define WARDEN_RECORD_ONLY 1
#define WARDEN_PICTURES_FUNCTION record_examples_fixed
#define WARDEN_PICTURES_VARIANT shipped
#include "example_recordings.inc"
