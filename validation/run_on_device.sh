#!/usr/bin/env bash
# Build and run every validation program on a real GPU and pack the outputs.
#
#   bash validation/run_on_device.sh [OUTDIR]        (OUTDIR defaults to $OUT, else ./validation_out)
#
# Writes OUTDIR/validation_$VALIDATION_TAG.tar.gz (default h200) (raw outputs, logs, SASS, metadata), OUTDIR/run.log and,
# when python3 with numpy is there, OUTDIR/results_json.tar.gz (validation/pack_results.py's JSON)
# and OUTDIR/pack.log.
# A failing build or program is logged and skipped; every step has a timeout.
# Local dry run without a GPU (builds for warpsim's CUDA runtime and runs under `warpsim exec`):
#   VALIDATION_NVCC_FLAGS="-O3 -arch=sm_80 -cudart shared" \
#   VALIDATION_RUN_PREFIX="warpsim exec --" VALIDATION_ONLY="int32_ops warp_ops" \
#   bash validation/run_on_device.sh /tmp/vout
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DEST=${1:-${OUT:-$PWD/validation_out}}
for d in /usr/local/cuda/bin /usr/local/cuda-13.0/bin; do
    [ -d "$d" ] && case ":$PATH:" in *":$d:"*) ;; *) PATH=$PATH:$d ;; esac
done
export PATH
NVCC=${NVCC:-nvcc}
NVCC_FLAGS=${VALIDATION_NVCC_FLAGS:--O3 -arch=sm_90}
RUN_PREFIX=${VALIDATION_RUN_PREFIX:-}
ONLY=${VALIDATION_ONLY:-}
PROG_TIMEOUT=${VALIDATION_PROG_TIMEOUT:-90}
T_START=$(date +%s)

mkdir -p "$DEST"
WORK=$(mktemp -d)
TAG=${VALIDATION_TAG:-h200}   # the results folder: results/<TAG>/
R=$WORK/$TAG
mkdir -p "$R/bin" "$R/out" "$R/log" "$R/sass" "$R/meta"
LOG=$R/run.log
log() { echo "[$(date -u +%H:%M:%S)] $*" | tee -a "$LOG"; }

log "validation run: src=$HERE dest=$DEST flags='$NVCC_FLAGS' prefix='$RUN_PREFIX' nvcc=$(command -v $NVCC)"
{
    echo "date_utc=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "hostname=$(hostname 2>/dev/null)"
    echo "kernel=$(uname -r)"
    echo "nvcc_flags=$NVCC_FLAGS"
} > "$R/meta/env.txt"
$NVCC --version > "$R/meta/nvcc_version.txt" 2>&1 || log "nvcc --version failed"
if command -v nvidia-smi > /dev/null; then
    nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv > "$R/meta/smi_clocks_before.csv" 2>&1
    nvidia-smi --query-gpu=name,driver_version,pci.bus_id,memory.total,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,pstate,temperature.gpu,power.draw,compute_cap --format=csv \
        > "$R/meta/smi_before.csv" 2>&1
    timeout 20 nvidia-smi -q > "$R/meta/smi_q.txt" 2>&1
else
    log "nvidia-smi not found"
fi
cat "$R/meta/nvcc_version.txt" "$R/meta/smi_before.csv" 2>/dev/null | tee -a "$LOG"

# ---- build everything in parallel ----
PROGS=()
for src in "$HERE"/kernels/*.cu; do
    name=$(basename "$src" .cu)
    if [ -n "$ONLY" ] && ! [[ " $ONLY " == *" $name "* ]]; then continue; fi
    PROGS+=("$name")
done
log "programs: ${PROGS[*]}"
(cd "$HERE/kernels" && sha256sum ./*.cu ./*.h) > "$R/meta/sources.sha256" 2>/dev/null
t0=$(date +%s)
for name in "${PROGS[@]}"; do
    ( timeout 240 $NVCC $NVCC_FLAGS -I"$HERE/kernels" -o "$R/bin/$name" "$HERE/kernels/$name.cu" \
        > "$R/log/$name.build.txt" 2>&1; echo $? > "$R/log/$name.build.rc" ) &
done
wait
log "build finished in $(( $(date +%s) - t0 )) s"
for name in "${PROGS[@]}"; do
    rc=$(cat "$R/log/$name.build.rc" 2>/dev/null || echo 99)
    if [ "$rc" != 0 ]; then log "BUILD FAILED $name (rc=$rc)"; tail -n 20 "$R/log/$name.build.txt" | tee -a "$LOG"; fi
done
# the PTX of each functional program: the tests run exactly this PTX on warpsim's functional
# model (compiling the source again with another CUDA version can change libdevice's math)
mkdir -p "$R/ptx"
for name in "${PROGS[@]}"; do
    case $name in lat_*|throughput) continue ;; esac
    timeout 120 $NVCC ${NVCC_FLAGS/-cudart shared/} -ptx -I"$HERE/kernels" -o "$R/ptx/$name.ptx" \
        "$HERE/kernels/$name.cu" >> "$R/log/$name.build.txt" 2>&1 || log "PTX build failed: $name"
done
if command -v cuobjdump > /dev/null; then
    for name in lat_alu lat_mem throughput; do
        [ -x "$R/bin/$name" ] && timeout 60 cuobjdump -sass "$R/bin/$name" > "$R/sass/$name.sass" 2>&1
    done
fi

# ---- run ----
STATUS=$R/status.tsv
printf 'program\tbuild_rc\trun_rc\tseconds\trepeat_identical\n' > "$STATUS"
for name in "${PROGS[@]}"; do
    brc=$(cat "$R/log/$name.build.rc" 2>/dev/null || echo 99)
    if [ "$brc" != 0 ]; then printf '%s\t%s\t-\t-\t-\n' "$name" "$brc" >> "$STATUS"; continue; fi
    t0=$(date +%s%N)
    timeout "$PROG_TIMEOUT" $RUN_PREFIX "$R/bin/$name" "$R/out/$name.bin" > "$R/log/$name.stdout.txt" 2>&1
    rc=$?
    dt_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
    dt=$(printf '%d.%03d' $((dt_ms / 1000)) $((dt_ms % 1000)))
    same="-"
    case $name in lat_*|throughput) ;; *)
        # functional programs run twice: is the hardware output reproducible?
        if [ "$rc" = 0 ]; then
            timeout "$PROG_TIMEOUT" $RUN_PREFIX "$R/bin/$name" "$R/out/$name.repeat.bin" > /dev/null 2>&1
            if cmp -s "$R/out/$name.bin" "$R/out/$name.repeat.bin"; then same=yes; else same=no; fi
            rm -f "$R/out/$name.repeat.bin"
        fi ;;
    esac
    printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$brc" "$rc" "$dt" "$same" >> "$STATUS"
    log "ran $name: rc=$rc ${dt}s repeat_identical=$same: $(tail -n 1 "$R/log/$name.stdout.txt")"
    [ "$rc" != 0 ] && tail -n 20 "$R/log/$name.stdout.txt" | tee -a "$LOG"
done
cat "$STATUS" | tee -a "$LOG"

if command -v nvidia-smi > /dev/null; then
    nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv > "$R/meta/smi_clocks_after.csv" 2>&1
fi
echo "total_seconds=$(( $(date +%s) - T_START ))" >> "$R/meta/env.txt"
log "total $(( $(date +%s) - T_START )) s"

# ---- pack ----
cp "$LOG" "$DEST/run.log"
tar czf "$DEST/validation_$TAG.tar.gz" -C "$WORK" "$TAG" && log "packed $(du -h "$DEST/validation_$TAG.tar.gz" | cut -f1)"
if command -v python3 > /dev/null; then
    # at most 8 files come back from the device: the JSON goes into a second tarball
    mkdir -p "$WORK/results_json"
    if timeout 120 python3 "$HERE/pack_results.py" "$DEST/validation_$TAG.tar.gz" "$WORK/results_json" \
        > "$DEST/pack.log" 2>&1; then
        tar czf "$DEST/results_json.tar.gz" -C "$WORK" results_json
    else
        log "pack_results.py failed (see pack.log); the raw tarball is complete"
    fi
    tail -n 40 "$DEST/pack.log"
fi
cp "$LOG" "$DEST/run.log"
rm -rf "$WORK"
exit 0
