// The examples' broken variants (WARDEN_DEFECT), which the checker rejects, built without it so
// that they can be recorded: see example_recordings.hpp.
#define WARDEN_RECORD_ONLY 1
#define WARDEN_DEFECT 1
#define WARDEN_PICTURES_FUNCTION record_examples_broken
#define WARDEN_PICTURES_VARIANT broken
#include "example_recordings.inc"
