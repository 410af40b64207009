// Low occupancy from small blocks: the kernel of occ_high in 32-thread blocks; the 8-block
// limit per SM leaves 8 warps per SM.
#include "occ_common.h"

int main() { return occ_run<1>("occ_small_blocks", 720, 32); }
