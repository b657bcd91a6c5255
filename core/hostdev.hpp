// Qualifiers that let one function body compile for host and device.
#pragma once

#if defined(__CUDACC__)
#define SB_HD __host__ __device__
#else
#define SB_HD
#endif
