// High occupancy: 256-thread blocks, no shared memory: 6 resident blocks (48 warps) per SM.
#include "occ_common.h"

int main() { return occ_run<1>("occ_high", 90, 256); }
