#pragma once
// Compiler detection shared by every header. Kept tiny: a header that needs more includes it itself.

#if defined(__CUDACC__)
#define WARDEN_HOST_DEVICE __host__ __device__
#else
#define WARDEN_HOST_DEVICE
#endif
