#!/bin/bash
# Build and run Rodinia CUDA programs on small inputs (our own from make_inputs.py where the
# suite's repository lacks them, or the programs' generators with a fixed seed) under
# `warpsim exec` (functional model), and check each one against an independent reference
# (check_outputs.py: the suite's OpenMP version, numpy, the program's own CPU check, or
# (myocyte) its source built for the CPU with cuda_on_host.h). Nothing of the suite is
# committed here; seeds and output dumps are patched into the scratch copies (sed).
#
#   run_rodinia.sh RODINIA WORK [SAMPLES_COMMON]
# RODINIA: a checkout of yuhc/gpu-rodinia (its cuda/ and openmp/ folders); it is copied to
# WORK (the programs read ../../data/... relative to their folders, and are built there).
# SAMPLES_COMMON: cuda-samples' Common/ folder (cfd includes helper_cuda.h).
# warpsim must be importable (PYTHONPATH) and the nvcc wheel installed (`warpsim nvcc`).
# ONLY="lavaMD nw ..." (environment) runs only the programs named (as in the `==` lines);
# EXEC_ARGS="--config gtx480" passes options to `warpsim exec` (srad_v2 keeps its own line).
set -u
RODINIA=$1; WORK=$2; COMMON=${3:-}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$WORK" && cp -r "$RODINIA"/cuda "$RODINIA"/openmp "$WORK"/
python3 "$HERE/make_inputs.py" "$WORK/data" || exit 1
C="python3 $HERE/check_outputs.py"
NV="python3 -m warpsim nvcc -arch=sm_80 -O2 -DcudaThreadSynchronize=cudaDeviceSynchronize
    -DcudaThreadExit=cudaDeviceReset"
EX="timeout 1200 python3 -m warpsim exec ${EXEC_ARGS:-} --"
R=$WORK/cuda; O=$WORK/openmp; D=$WORK/data
status() { want "$1" && echo "== $1: $2"; }
want() { [ -z "${ONLY:-}" ] || [[ " $ONLY " == *" $1 "* ]]; }

# srad_v1: 10 iterations on the 502x458 image resized to 128x128; OpenMP version as reference.
want srad_v1 && (cd "$R/srad/srad_v1" && $NV -o srad main.cu > b.log 2>&1 &&
 $EX ./srad 10 0.5 128 128 > r.log 2>&1 &&
 cd "$O/srad/srad_v1" && gcc -O2 -fopenmp main.c -lm -o srad &&
 ./srad 10 0.5 128 128 1 > r.log &&
 $C srad "$R/srad/srad_v1/image_out.pgm" image_out.pgm); status srad_v1 $?

# srad_v2: its own random 64x64 image, 2 iterations, under --oob report (its first block row
# reads a row before the array); the OpenMP version's printed image.
want srad_v2 && (cd "$R/srad/srad_v2" && $NV -DOUTPUT -o srad srad.cu > b.log 2>&1 &&
 timeout 1200 python3 -m warpsim exec --oob report -- ./srad 64 64 0 31 0 31 0.5 2 > r.log \
   2> e.log &&
 cd "$O/srad/srad_v2" && g++ -O2 -fopenmp -DOUTPUT -o srad srad.cpp &&
 ./srad 64 64 0 31 0 31 1 0.5 2 > r.log && $C printed "$R/srad/srad_v2/r.log" r.log 4096)
status srad_v2 $?

# b+tree: 10000 records, 256 key lookups and 256 range queries; OpenMP version's output.txt.
want b+tree && (cd "$R/b+tree" && $NV -o b+tree.out main.c kernel/kernel_gpu_cuda_wrapper.cu \
   kernel/kernel_gpu_cuda_wrapper_2.cu util/timer/timer.c util/num/num.c util/cuda/cuda.cu \
   -lm > b.log 2>&1 &&
 $EX ./b+tree.out file "$D/b+tree/records.txt" command "$D/b+tree/command.txt" > r.log 2>&1 &&
 cd "$O/b+tree" && gcc -O2 -fopenmp -o b+tree.out main.c kernel/kernel_cpu.c \
   kernel/kernel_cpu_2.c util/timer/timer.c util/num/num.c -lm 2> /dev/null &&
 ./b+tree.out core 1 file "$D/b+tree/records.txt" command "$D/b+tree/command.txt" > r.log &&
 cmp "$R/b+tree/output.txt" output.txt && echo "b+tree: output.txt identical"); status b+tree $?

# cfd: 384-cell mesh with a fence, the 2000 iterations cut to 10 (a copy of the source).
CUT='s/^#define iterations 2000/#define iterations 10/'
want cfd && (cd "$R/cfd" && sed "$CUT" euler3d.cu > small.cu &&
 $NV ${COMMON:+-I"$COMMON"} -o euler3d small.cu > b.log 2>&1 &&
 $EX ./euler3d "$D/cfd/fence.domn" > r.log 2>&1 &&
 cd "$O/cfd" && sed "$CUT" euler3d_cpu.cpp > small.cpp &&
 g++ -O2 -fopenmp -Dblock_length=192 -o euler3d_cpu small.cpp &&
 ./euler3d_cpu "$D/cfd/fence.domn" > r.log &&
 $C cfd "$R/cfd" .); status cfd $?

# huffman: 256 KiB of skewed bytes; the program's own CPU encoder comparison.
want huffman && (cd "$R/huffman" && $NV -DdeviceOverlap=asyncEngineCount -o pavle main_test_cu.cu \
   stats_logger.cpp vlc_kernel_sm64huff.cu scan.cu pack_kernels.cu cpuencode.cpp > b.log 2>&1 &&
 $EX ./pavle "$D/huffman/skewed.in" > r.log 2>&1 && grep "PASS! vectors are matching" r.log)
status huffman $?

# dwt2d: a 64x64 24-bit BMP, forward 5/3 over 1 and 3 levels, written out (-DOUTPUT): numpy.
want dwt2d && (cd "$R/dwt2d" && $NV -DOUTPUT -I. -o dwt2d main.cu dwt.cu components.cu \
   dwt_cuda/fdwt53.cu \
   dwt_cuda/fdwt97.cu dwt_cuda/common.cu dwt_cuda/rdwt97.cu dwt_cuda/rdwt53.cu > b.log 2>&1 &&
 $EX ./dwt2d 64.bmp out1 -d 64x64 -f -5 -l 1 > r1.log 2>&1 &&
 $C dwt53 "$D/dwt2d/64.bmp" 64 64 1 out1 &&
 $EX ./dwt2d 64.bmp out3 -d 64x64 -f -5 -l 3 > r3.log 2>&1 &&
 $C dwt53 "$D/dwt2d/64.bmp" 64 64 3 out3)
status dwt2d $?

# myocyte: 5 ms of one cell (mode 0). Reference: the program's own source built for the CPU
# with g++ (cuda_on_host.h; the kernel launch becomes a loop over its 2 blocks). Its OpenMP
# version is not a reference: it orders the parameters differently and diverges after 1 ms.
want myocyte && (cd "$R/myocyte" && $NV -o myocyte.out main.cu > b.log 2>&1 &&
 $EX ./myocyte.out 5 1 0 > r.log 2>&1 && cp output.txt output_warpsim.txt &&
 mkdir -p host && cp ./*.c ./*.cu host/ && cd host &&
 sed -i 's/kernel<<<blocks, threads>>>(/for (int b = 0; b < 2; b++) { blockIdx.x = b; kernel(/;
         /^\t*d_com);/s/d_com);/d_com); }/' master.cu &&
 sed 's/#include "work_2.cu"//; s/work_2(\s*xmax,/work(xmax,/' main.cu > main_host.cpp &&
 g++ -O2 -w -include "$HERE/cuda_on_host.h" -x c++ main_host.cpp -o ../myocyte_host -lm &&
 cd .. && ./myocyte_host 5 1 0 > host.log && $C myocyte output_warpsim.txt output.txt)
status myocyte $?

# heartwall: 3 frames of a 640x600 grey AVI (written by make_inputs.py); OpenMP result.txt.
want heartwall && (cd "$R/heartwall/AVI" && gcc -O2 -c avimod.c avilib.c && cd .. &&
 $NV -DOUTPUT -I./AVI -o heartwall main.cu AVI/avilib.o AVI/avimod.o -lm > b.log 2>&1 &&
 $EX ./heartwall "$D/heartwall/test.avi" 3 > r.log 2>&1 &&
 cd "$O/heartwall/AVI" && gcc -O2 -c avimod.c avilib.c && cd .. &&
 gcc -O2 -fopenmp -DOUTPUT -I./AVI -o heartwall main.c AVI/avilib.o AVI/avimod.o -lm &&
 ./heartwall "$D/heartwall/test.avi" 3 1 > r.log &&
 $C heartwall "$R/heartwall/result.txt" result.txt)
status heartwall $?

# lavaMD: 2x2x2 boxes (800 particles), built with -DOUTPUT; both versions' srand(time(NULL))
# fixed to srand(7) in the copies; OpenMP result.txt (1 core).
SEED7='s/srand(time(NULL))/srand(7)/'
want lavaMD && (cd "$R/lavaMD" && sed -i "$SEED7" main.c &&
 $NV -DOUTPUT -o lavaMD main.c kernel/kernel_gpu_cuda_wrapper.cu util/num/num.c \
   util/timer/timer.c util/device/device.cu -lm > b.log 2>&1 &&
 $EX ./lavaMD -boxes1d 2 > r.log 2>&1 &&
 cd "$O/lavaMD" && sed -i "$SEED7" main.c &&
 gcc -O2 -fopenmp -DOUTPUT -w -o lavaMD main.c kernel/kernel_cpu.c util/num/num.c \
   util/timer/timer.c -lm && ./lavaMD -cores 1 -boxes1d 2 > r.log &&
 $C lavamd "$R/lavaMD/result.txt" result.txt); status lavaMD $?

# nw: 256x256, penalty 10 (both srand(7)), built with -DTRACEBACK, copies patched to write the
# whole 257x257 score matrix (matrix.bin): it and result.txt (the traceback's scores) identical
# to the OpenMP version's.
MAT='FILE *fm = fopen("matrix.bin", "wb"); fwrite(M, sizeof(int), max_rows * max_cols, fm);
 fclose(fm);'
MAT=${MAT//$'\n'/}
want nw && (cd "$R/nw" &&
 sed "s|^\(\s*cudaMemcpy(output_itemsets, matrix_cuda.*\)$|\1 { ${MAT/M/output_itemsets} }|" \
   needle.cu > dump.cu && $NV -DTRACEBACK -o needle dump.cu > b.log 2>&1 &&
 $EX ./needle 256 10 > r.log 2>&1 &&
 cd "$O/nw" && END='long long end_time = get_time();' &&
 sed "s|^\(\s*$END\)\r\?$|\1 { ${MAT/M/input_itemsets} }|" needle.cpp > dump.cpp &&
 g++ -O2 -fopenmp -w -o needle dump.cpp && ./needle 256 10 1 > r.log &&
 cmp "$R/nw/result.txt" result.txt && cmp "$R/nw/matrix.bin" matrix.bin &&
 echo "nw: traceback ($(wc -w < result.txt) words) and all $(($(wc -c < matrix.bin) / 4))" \
   "scores identical")
status nw $?

# backprop: 65536 and 32 inputs (seed 7 in both). Copies of the sources write what a training
# step computed (the CUDA version keeps its adjusted input weights in a host array it frees):
# GPU weights.bin, the OpenMP version's w0.bin (before) and weights.bin (after).
GDUMP='s|^\(\s*cudaMemcpy(input_weights_one_dim, input_hidden_cuda.*\)$|\1 { FILE *f =
 fopen("weights.bin", "wb"); fwrite(input_weights_one_dim, sizeof(float), (in + 1) * (hid + 1),
 f); fwrite(net->hidden_units, sizeof(float), hid + 1, f); for (int k = 0; k <= hid; k++)
 fwrite(net->hidden_weights[k], sizeof(float), out + 1, f); fwrite(partial_sum, sizeof(float),
 num_blocks * hid, f); fclose(f); }|'
W='FILE *f = fopen(N, "wb"); for (int k = 0; k <= net->input_n; k++)
 fwrite(net->input_weights[k], sizeof(float), net->hidden_n + 1, f);'
CDUMP="s|^\(\s*\)bpnn_train_kernel(net, &out_err, &hid_err);|\1{ ${W//N/\"w0.bin\"}
 fwrite(net->input_units, sizeof(float), net->input_n + 1, f); fclose(f); }
 bpnn_train_kernel(net, \&out_err, \&hid_err); { ${W//N/\"weights.bin\"}
 fwrite(net->hidden_units, sizeof(float), net->hidden_n + 1, f); for (int k = 0;
 k <= net->hidden_n; k++) fwrite(net->hidden_weights[k], sizeof(float), net->output_n + 1, f);
 fclose(f); }|"
want backprop && (cd "$R/backprop" && sed "${GDUMP//$'\n'/}" backprop_cuda.cu > dump.cu &&
 $NV -o backprop backprop.c facetrain.c imagenet.c dump.cu -lm > b.log 2>&1 &&
 cd "$O/backprop" && sed "${CDUMP//$'\n'/}" facetrain.c > dump.c &&
 gcc -O2 -fopenmp -w -o backprop backprop.c dump.c imagenet.c backprop_kernel.c -lm &&
 for n in 65536 32; do
   (cd "$R/backprop" && $EX ./backprop $n > r$n.log 2>&1 && mv weights.bin g$n.bin) &&
   OMP_NUM_THREADS=1 ./backprop $n > r$n.log && mv weights.bin c$n.bin && mv w0.bin w0_$n.bin &&
   $C backprop "$R/backprop/g$n.bin" c$n.bin w0_$n.bin $n || exit 1
 done); status backprop $?

# streamcluster: 1024 generated 16-d points in one chunk, 10-20 centres (both srand48(1)): the
# output file (centre ids, weights, coordinates) identical to the OpenMP version's.
want streamcluster && (cd "$R/streamcluster" &&
 $NV -o sc_gpu streamcluster_cuda_cpu.cpp streamcluster_cuda.cu > b.log 2>&1 &&
 $EX ./sc_gpu 10 20 16 1024 1024 100 none out 1 > r.log 2>&1 &&
 cd "$O/streamcluster" && g++ -O2 -fopenmp -w -o sc_omp streamcluster_omp.cpp &&
 ./sc_omp 10 20 16 1024 1024 100 none out 1 > r.log 2>&1 &&
 cmp "$R/streamcluster/out" out && echo "streamcluster: $(grep -c . out) lines identical")
status streamcluster $?

# particlefilter: 128x128, 10 frames, 1000 particles; the seeds time(0)*i replaced by 7*i in
# copies of all three sources; XE, YE and distance against the OpenMP version (1 core).
FIX='s/time(0) *\* *i/7 * i/'
want particlefilter && (cd "$O/particlefilter" && sed "$FIX" ex_particle_OPENMP_seq.c > fixed.c &&
 gcc -O2 -fopenmp -w -o pf fixed.c -lm &&
 OMP_NUM_THREADS=1 ./pf -x 128 -y 128 -z 10 -np 1000 > r.log && cd "$R/particlefilter" &&
 for v in naive:9 float:1; do
   sed "$FIX" "ex_particle_CUDA_${v%:*}_seq.cu" > "fixed_${v%:*}.cu" &&
   $NV -o "pf_${v%:*}" "fixed_${v%:*}.cu" -lm > "b_${v%:*}.log" 2>&1 &&
   $EX "./pf_${v%:*}" -x 128 -y 128 -z 10 -np 1000 > "r_${v%:*}.log" 2>&1 &&
   $C particles "r_${v%:*}.log" "$O/particlefilter/r.log" "${v#*:}" || exit 1
 done); status particlefilter $?
