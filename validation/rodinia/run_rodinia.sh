#!/bin/bash
# Build and run the Rodinia CUDA programs whose inputs the suite's repository lacks, on our own
# small inputs (make_inputs.py), under `warpsim exec` (functional model), and check each one
# against an independent reference (check_outputs.py: the suite's OpenMP version, numpy, the
# program's own CPU check, or (myocyte) its source built for the CPU with cuda_on_host.h). Nothing of the suite is committed here.
#
#   run_rodinia.sh RODINIA WORK [SAMPLES_COMMON]
# RODINIA: a checkout of yuhc/gpu-rodinia (its cuda/ and openmp/ folders); it is copied to
# WORK (the programs read ../../data/... relative to their folders, and are built there).
# SAMPLES_COMMON: cuda-samples' Common/ folder (cfd includes helper_cuda.h).
# warpsim must be importable (PYTHONPATH) and the nvcc wheel installed (`warpsim nvcc`).
set -u
RODINIA=$1; WORK=$2; COMMON=${3:-}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$WORK" && cp -r "$RODINIA"/cuda "$RODINIA"/openmp "$WORK"/
python3 "$HERE/make_inputs.py" "$WORK/data" || exit 1
C="python3 $HERE/check_outputs.py"
NV="python3 -m warpsim nvcc -arch=sm_80 -O2 -DcudaThreadSynchronize=cudaDeviceSynchronize
    -DcudaThreadExit=cudaDeviceReset"
EX="timeout 1200 python3 -m warpsim exec --"
R=$WORK/cuda; O=$WORK/openmp; D=$WORK/data
status() { echo "== $1: $2"; }

# srad_v1: 10 iterations on the 502x458 image resized to 128x128; OpenMP version as reference.
(cd "$R/srad/srad_v1" && $NV -o srad main.cu > b.log 2>&1 &&
 $EX ./srad 10 0.5 128 128 > r.log 2>&1 &&
 cd "$O/srad/srad_v1" && gcc -O2 -fopenmp main.c -lm -o srad &&
 ./srad 10 0.5 128 128 1 > r.log &&
 $C srad "$R/srad/srad_v1/image_out.pgm" image_out.pgm); status srad_v1 $?

# srad_v2: its own random 64x64 image, 2 iterations, under --oob report (its first block row
# reads a row before the array); the OpenMP version's printed image.
(cd "$R/srad/srad_v2" && $NV -DOUTPUT -o srad srad.cu > b.log 2>&1 &&
 timeout 1200 python3 -m warpsim exec --oob report -- ./srad 64 64 0 31 0 31 0.5 2 > r.log \
   2> e.log &&
 cd "$O/srad/srad_v2" && g++ -O2 -fopenmp -DOUTPUT -o srad srad.cpp &&
 ./srad 64 64 0 31 0 31 1 0.5 2 > r.log && $C printed "$R/srad/srad_v2/r.log" r.log 4096)
status srad_v2 $?

# b+tree: 10000 records, 256 key lookups and 256 range queries; OpenMP version's output.txt.
(cd "$R/b+tree" && $NV -o b+tree.out main.c kernel/kernel_gpu_cuda_wrapper.cu \
   kernel/kernel_gpu_cuda_wrapper_2.cu util/timer/timer.c util/num/num.c util/cuda/cuda.cu \
   -lm > b.log 2>&1 &&
 $EX ./b+tree.out file "$D/b+tree/records.txt" command "$D/b+tree/command.txt" > r.log 2>&1 &&
 cd "$O/b+tree" && gcc -O2 -fopenmp -o b+tree.out main.c kernel/kernel_cpu.c \
   kernel/kernel_cpu_2.c util/timer/timer.c util/num/num.c -lm 2> /dev/null &&
 ./b+tree.out core 1 file "$D/b+tree/records.txt" command "$D/b+tree/command.txt" > r.log &&
 cmp "$R/b+tree/output.txt" output.txt && echo "b+tree: output.txt identical"); status b+tree $?

# cfd: 384-cell mesh with a fence, the 2000 iterations cut to 10 (a copy of the source).
CUT='s/^#define iterations 2000/#define iterations 10/'
(cd "$R/cfd" && sed "$CUT" euler3d.cu > small.cu &&
 $NV ${COMMON:+-I"$COMMON"} -o euler3d small.cu > b.log 2>&1 &&
 $EX ./euler3d "$D/cfd/fence.domn" > r.log 2>&1 &&
 cd "$O/cfd" && sed "$CUT" euler3d_cpu.cpp > small.cpp &&
 g++ -O2 -fopenmp -Dblock_length=192 -o euler3d_cpu small.cpp &&
 ./euler3d_cpu "$D/cfd/fence.domn" > r.log &&
 $C cfd "$R/cfd" .); status cfd $?

# huffman: 256 KiB of skewed bytes; the program's own CPU encoder comparison.
(cd "$R/huffman" && $NV -DdeviceOverlap=asyncEngineCount -o pavle main_test_cu.cu \
   stats_logger.cpp vlc_kernel_sm64huff.cu scan.cu pack_kernels.cu cpuencode.cpp > b.log 2>&1 &&
 $EX ./pavle "$D/huffman/skewed.in" > r.log 2>&1 && grep "PASS! vectors are matching" r.log)
status huffman $?

# dwt2d: a 64x64 24-bit BMP, forward 5/3 over 1 and 3 levels, written out (-DOUTPUT): numpy.
(cd "$R/dwt2d" && $NV -DOUTPUT -I. -o dwt2d main.cu dwt.cu components.cu dwt_cuda/fdwt53.cu \
   dwt_cuda/fdwt97.cu dwt_cuda/common.cu dwt_cuda/rdwt97.cu dwt_cuda/rdwt53.cu > b.log 2>&1 &&
 $EX ./dwt2d 64.bmp out1 -d 64x64 -f -5 -l 1 > r1.log 2>&1 &&
 $C dwt53 "$D/dwt2d/64.bmp" 64 64 1 out1 &&
 $EX ./dwt2d 64.bmp out3 -d 64x64 -f -5 -l 3 > r3.log 2>&1 &&
 $C dwt53 "$D/dwt2d/64.bmp" 64 64 3 out3)
status dwt2d $?

# myocyte: 5 ms of one cell (mode 0). Reference: the program's own source built for the CPU
# with g++ (cuda_on_host.h; the kernel launch becomes a loop over its 2 blocks). Its OpenMP
# version is not a reference: it orders the parameters differently and diverges after 1 ms.
(cd "$R/myocyte" && $NV -o myocyte.out main.cu > b.log 2>&1 &&
 $EX ./myocyte.out 5 1 0 > r.log 2>&1 && cp output.txt output_warpsim.txt &&
 mkdir -p host && cp ./*.c ./*.cu host/ && cd host &&
 sed -i 's/kernel<<<blocks, threads>>>(/for (int b = 0; b < 2; b++) { blockIdx.x = b; kernel(/;
         /^\t*d_com);/s/d_com);/d_com); }/' master.cu &&
 sed 's/#include "work_2.cu"//; s/work_2(\s*xmax,/work(xmax,/' main.cu > main_host.cpp &&
 g++ -O2 -w -include "$HERE/cuda_on_host.h" -x c++ main_host.cpp -o ../myocyte_host -lm &&
 cd .. && ./myocyte_host 5 1 0 > host.log && $C myocyte output_warpsim.txt output.txt)
status myocyte $?

# heartwall: 3 frames of a 640x600 grey AVI (written by make_inputs.py); OpenMP result.txt.
(cd "$R/heartwall/AVI" && gcc -O2 -c avimod.c avilib.c && cd .. &&
 $NV -DOUTPUT -I./AVI -o heartwall main.cu AVI/avilib.o AVI/avimod.o -lm > b.log 2>&1 &&
 $EX ./heartwall "$D/heartwall/test.avi" 3 > r.log 2>&1 &&
 cd "$O/heartwall/AVI" && gcc -O2 -c avimod.c avilib.c && cd .. &&
 gcc -O2 -fopenmp -DOUTPUT -I./AVI -o heartwall main.c AVI/avilib.o AVI/avimod.o -lm &&
 ./heartwall "$D/heartwall/test.avi" 3 1 > r.log &&
 $C heartwall "$R/heartwall/result.txt" result.txt)
status heartwall $?
