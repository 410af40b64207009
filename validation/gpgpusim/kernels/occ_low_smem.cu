// Low occupancy from shared memory: the kernel of occ_high with 40 KiB of static shared memory
// per block, so one block (8 warps) per SM.
#include "occ_common.h"

int main() { return occ_run<10240>("occ_low_smem", 90, 256); }
