#!/usr/bin/env bash
# Rebuild GPGPU-Sim 4.2.0 (upstream commit a4ce3fe) for CUDA 13 in a scratch folder outside the
# repository, with the five small compatibility patches below. Nothing of GPGPU-Sim is committed;
# this script is the whole recipe.
#
#   bash validation/gpgpusim/build_gpgpusim.sh [SCRATCH] [SOURCE]
#
# SCRATCH  build folder (default /work/scratch/gpgpusim); gets src/ (patched sources and the
#          build), cuda/ (a CUDA_INSTALL_PATH overlay: the system toolkit's bin/ plus cuobjdump
#          from the nvidia-cuda-cuobjdump wheel), cuobjdump_wheel/ and env.sh.
# SOURCE   a git directory (bare or not) holding commit a4ce3fe, or an unpacked source tree;
#          default: clone https://github.com/gpgpu-sim/gpgpu-sim_distribution (tag v4.2.0).
#
# Needs: gcc/g++, make, bison, flex, zlib1g-dev, xutils-dev (makedepend), a CUDA 13 toolkit
# (nvcc + ptxas; CUDA_TOOLKIT, default: the folder above `which nvcc`'s real path), pip.
# Afterwards `source SCRATCH/env.sh` sets up a shell to run programs on GPGPU-Sim.
set -euo pipefail

SCRATCH=${1:-/work/scratch/gpgpusim}
SOURCE=${2:-}
COMMIT=a4ce3fea
UPSTREAM=https://github.com/gpgpu-sim/gpgpu-sim_distribution
CUOBJDUMP_WHEEL=${CUOBJDUMP_WHEEL:-nvidia-cuda-cuobjdump==13.5.37}
JOBS=${JOBS:-2}

case "$SCRATCH" in
    "$(git rev-parse --show-toplevel 2>/dev/null || echo /nonexistent)"*)
        echo "refusing to build inside the repository: $SCRATCH" >&2; exit 1;;
esac
mkdir -p "$SCRATCH"
SCRATCH=$(cd "$SCRATCH" && pwd)
SRC=$SCRATCH/src

# -- 1. sources ---------------------------------------------------------------------------------
if [ ! -f "$SRC/version" ]; then
    mkdir -p "$SRC"
    if [ -z "$SOURCE" ]; then
        git clone --quiet "$UPSTREAM" "$SCRATCH/upstream.git" --bare
        SOURCE=$SCRATCH/upstream.git
    fi
    if [ -f "$SOURCE/version" ] && [ -d "$SOURCE/src" ]; then
        cp -a "$SOURCE/." "$SRC/"
    else
        git --git-dir="$SOURCE" archive "$COMMIT" | tar -x -C "$SRC"
    fi
fi
grep -q "Version 4.2.0" "$SRC/version" || { echo "not GPGPU-Sim 4.2.0: $SRC" >&2; exit 1; }

# -- 2. CUDA overlay: toolkit binaries + cuobjdump ----------------------------------------------
if [ -z "${CUDA_TOOLKIT:-}" ]; then
    CUDA_TOOLKIT=/usr/local/cuda
    [ -f "$CUDA_TOOLKIT/include/cuda_runtime.h" ] ||
        CUDA_TOOLKIT=$(dirname "$(dirname "$(readlink -f "$(command -v nvcc)")")")
fi
[ -x "$CUDA_TOOLKIT/bin/ptxas" ] && [ -f "$CUDA_TOOLKIT/include/cuda_runtime.h" ] ||
    { echo "no CUDA toolkit (bin/ptxas, include/) at $CUDA_TOOLKIT; set CUDA_TOOLKIT" >&2; exit 1; }
if [ ! -x "$SCRATCH/cuobjdump_wheel/nvidia/cu13/bin/cuobjdump" ]; then
    pip install --quiet --no-deps --target "$SCRATCH/cuobjdump_wheel" "$CUOBJDUMP_WHEEL"
fi
OVL=$SCRATCH/cuda
rm -rf "$OVL"; mkdir -p "$OVL/bin"
for f in "$CUDA_TOOLKIT"/bin/*; do ln -s "$f" "$OVL/bin/"; done
ln -sf "$SCRATCH/cuobjdump_wheel/nvidia/cu13/bin/cuobjdump" "$OVL/bin/cuobjdump"
for d in include lib64 nvvm; do
    if [ -e "$CUDA_TOOLKIT/$d" ]; then ln -s "$CUDA_TOOLKIT/$d" "$OVL/$d"; fi
done

# -- 3. CUDA 13 patches (idempotent: each checks for its own marker) ------------------------------
API=$SRC/libcuda/cuda_runtime_api.cc
# (a) cudaDeviceProp::clockRate is gone in CUDA 13.
if ! grep -q "WARPSIM-PATCH clockRate" "$API"; then
    sed -i 's|^\(\s*\)prop->clockRate = the_gpu->shader_clock();|#if CUDART_VERSION < 13000 /* WARPSIM-PATCH clockRate */\n\1prop->clockRate = the_gpu->shader_clock();\n#endif|' "$API"
fi
# (b) nvcc 13's <<<>>> launches through __cudaGetKernel + __cudaLaunchKernel(_ptsz): the kernel
#     handle is simply the host stub's address, which GPGPU-Sim already keys its kernels by.
if ! grep -q "WARPSIM-PATCH launch" "$API"; then
    cat >> "$API" <<'CXX'

/* WARPSIM-PATCH launch: CUDA 13 host stubs */
#if CUDART_VERSION >= 12000
extern "C" cudaError_t CUDARTAPI __cudaGetKernel(cudaKernel_t *kernel,
                                                 const void *func) {
  *kernel = (cudaKernel_t)func;
  return g_last_cudaError = cudaSuccess;
}
extern "C" cudaError_t CUDARTAPI __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid,
                                                    dim3 block, void **args,
                                                    size_t shmem, cudaStream_t stream) {
  return cudaLaunchKernelInternal((const char *)kernel, grid, block,
                                  (const void **)args, shmem, stream);
}
extern "C" cudaError_t CUDARTAPI __cudaLaunchKernel_ptsz(
    cudaKernel_t kernel, dim3 grid, dim3 block, void **args, size_t shmem,
    cudaStream_t stream) {
  return __cudaLaunchKernel(kernel, grid, block, args, shmem, stream);
}
#endif
CXX
fi
# (c) programs linked with nvcc 13 -cudart shared need libcudart.so.13 and its version node
#     (their symbol references are versioned `cudaMalloc@libcudart.so.13`).
VS=$SRC/linux-so-version.txt
grep -q "libcudart.so.13" "$VS" || printf 'libcudart.so.12{\n};\nlibcudart.so.13{\n};\n' >> "$VS"
grep -q "libcudart.so.13" "$SRC/Makefile" || sed -i 's|^\(\s*\)if \[ ! -f $(SIM_LIB_DIR)/libcudart_mod.so \]|\1if [ ! -f $(SIM_LIB_DIR)/libcudart.so.12 ]; then ln -s libcudart.so $(SIM_LIB_DIR)/libcudart.so.12; fi\n\1if [ ! -f $(SIM_LIB_DIR)/libcudart.so.13 ]; then ln -s libcudart.so $(SIM_LIB_DIR)/libcudart.so.13; fi\n&|' "$SRC/Makefile"
# (d) ptxas 13's resource lines: "Used N registers, used M barriers, ..." and a trailing
#     "Compile time = X ms" line; the ptxinfo lexer skips both.
LEX=$SRC/src/cuda-sim/ptxinfo.l
if ! grep -q "WARPSIM-PATCH" "$LEX"; then
    sed -i 's|^"ptxas info    : Function properties for"|", used "[0-9]+" barrier"s?\tTC; /* WARPSIM-PATCH */\n"ptxas info    : Compile time"[^\\n]*\tTC;\n&|' "$LEX"
fi
# (e) ptxas 13 knows sm_75 and later only: the occupancy query of configs asking for an older
#     SM (GTX480: -gpgpu_occupancy_sm_number 20) uses sm_75 instead.
LOADER=$SRC/src/cuda-sim/ptx_loader.cc
if ! grep -q "WARPSIM-PATCH" "$LOADER"; then
    sed -i 's|snprintf(extra_flags, 1024, "--gpu-name=sm_%u", g_occupancy_sm_number);|snprintf(extra_flags, 1024, "--gpu-name=sm_%u", g_occupancy_sm_number < 75 ? 75u : (unsigned)g_occupancy_sm_number); /* WARPSIM-PATCH */|; s|snprintf(extra_flags, 1024, "--gpu-name=sm_%u", sm_version);|snprintf(extra_flags, 1024, "--gpu-name=sm_%u", sm_version < 75 ? 75u : sm_version); /* WARPSIM-PATCH */|' "$LOADER"
fi

# -- 4. build ------------------------------------------------------------------------------------
cat > "$SCRATCH/env.sh" <<ENV
export CUDA_INSTALL_PATH=$OVL
export PTXAS_CUDA_INSTALL_PATH=$OVL
cd $SRC && source setup_environment >/dev/null && cd - >/dev/null
ENV
# shellcheck disable=SC1091
( set +eu; source "$SCRATCH/env.sh" && cd "$SRC" && make -j"$JOBS" ) || exit 1
ls -l "$SRC"/lib/*/*/*/libcudart.so.13
echo "GPGPU-Sim built; run programs after: source $SCRATCH/env.sh"
