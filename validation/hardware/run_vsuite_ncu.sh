#!/usr/bin/env bash
# Runs the GPGPU-Sim validation programs (validation/gpgpusim/kernels/*.cu) on a real GPU and
# records every kernel launch's cycles and a few counters with Nsight Compute (ncu).
#
#   bash validation/hardware/run_vsuite_ncu.sh OUTDIR
#
# The programs are built exactly as for GPGPU-Sim and warpsim (compute_75 PTX only; the driver
# JIT-compiles it for the GPU), so all three run the same PTX. Each program runs once plainly
# (its PASS/FAIL line, wall time) and once under ncu, which locks the clocks to base
# (--clock-control base, the default) and flushes the caches before each launch
# (--cache-control all, the default): every launch starts cold, as in a simulator.
# NCU_CLOCK_CONTROL=none keeps the GPU's own clocks (boost) instead of base;
# NCU_CACHE_CONTROL=none keeps the caches between launches (the L2 then holds what the host
# copied and what earlier launches left, as in warpsim and GPGPU-Sim with a warm L2).
# Writes OUTDIR/vsuite_ncu.tar.gz (CSV per program, logs, nvidia-smi, nvcc/ncu versions).
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DEST=${1:-${OUT:-$PWD/vsuite_out}}
for d in /usr/local/cuda/bin /usr/local/cuda-13.0/bin; do
    [ -d "$d" ] && case ":$PATH:" in *":$d:"*) ;; *) PATH=$PATH:$d ;; esac
done
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -n 1)
export PATH
KERN=$HERE/gpgpusim/kernels
WORK=$(mktemp -d)
V=$WORK/vsuite
mkdir -p "$DEST" "$V/bin" "$V/csv" "$V/log" "$V/meta"
T0=$(date +%s)
log() { echo "[$(date -u +%H:%M:%S)] $*" | tee -a "$V/run.log"; }
CLOCK=${NCU_CLOCK_CONTROL:-base}
CACHE=${NCU_CACHE_CONTROL:-all}
METRICS=gpc__cycles_elapsed.max,sm__cycles_elapsed.max,sm__cycles_elapsed.avg.per_second,sm__cycles_active.avg,sm__cycles_active.max,gpu__time_duration.sum,smsp__inst_executed.sum,smsp__thread_inst_executed.sum,sm__warps_launched.sum,sm__ctas_launched.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sector_hit_rate.pct,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,dram__bytes_write.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum
{
    echo "date_utc=$(date -u +%Y-%m-%dT%H:%M:%SZ)"; echo "ncu=$NCU"; echo "metrics=$METRICS"
    echo "clock_control=$CLOCK"
    echo "cache_control=$CACHE"
    echo "nvcc_flags=-cudart shared -gencode arch=compute_75,code=compute_75"
} > "$V/meta/env.txt"
nvcc --version > "$V/meta/nvcc_version.txt" 2>&1
"$NCU" --version > "$V/meta/ncu_version.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,compute_cap --format=csv > "$V/meta/smi.csv" 2>&1
cat "$V/meta/nvcc_version.txt" "$V/meta/ncu_version.txt" "$V/meta/smi.csv" | tee -a "$V/run.log"
PROGS=()
for src in "$KERN"/*.cu; do PROGS+=("$(basename "$src" .cu)"); done
(cd "$KERN" && sha256sum ./*.cu ./*.h) > "$V/meta/sources.sha256"
for p in "${PROGS[@]}"; do
    ( timeout 240 nvcc -cudart shared -gencode arch=compute_75,code=compute_75 -I"$KERN" \
        -o "$V/bin/$p" "$KERN/$p.cu" > "$V/log/$p.build.txt" 2>&1; echo $? > "$V/log/$p.build.rc" ) &
done
wait
log "built ${#PROGS[@]} programs in $(( $(date +%s) - T0 )) s"
printf 'program\tbuild_rc\tplain_rc\tplain_s\tverdict\tncu_rc\tncu_s\tlaunches\n' > "$V/status.tsv"
for p in "${PROGS[@]}"; do
    brc=$(cat "$V/log/$p.build.rc")
    if [ "$brc" != 0 ]; then printf '%s\t%s\t-\t-\t-\t-\t-\t-\n' "$p" "$brc" >> "$V/status.tsv"; continue; fi
    t=$(date +%s%N); (cd "$V/bin" && timeout 60 "./$p" > "$V/log/$p.plain.txt" 2>&1); prc=$?
    ps=$(( ($(date +%s%N) - t) / 1000000 ))
    verdict=$(grep -E "PASS|FAIL" "$V/log/$p.plain.txt" | tail -n 1 | tr '\t' ' ')
    t=$(date +%s%N)
    (cd "$V/bin" && timeout 120 "$NCU" --csv --page raw --print-units base --metrics "$METRICS" \
        --clock-control "$CLOCK" --cache-control "$CACHE" \
        --log-file "$V/csv/$p.csv" "./$p" > "$V/log/$p.ncu_stdout.txt" 2>&1); nrc=$?
    ns=$(( ($(date +%s%N) - t) / 1000000 ))
    n=$(grep -c '^"[0-9]' "$V/csv/$p.csv")
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$p" "$brc" "$prc" "$ps" "$verdict" "$nrc" "$ns" "$n" >> "$V/status.tsv"
    log "$p: plain rc=$prc ${ps}ms '$verdict'; ncu rc=$nrc ${ns}ms, $n launches"
done
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv > "$V/meta/smi_after.csv" 2>&1
echo "total_seconds=$(( $(date +%s) - T0 ))" >> "$V/meta/env.txt"
rm -rf "$V/bin"
tar czf "$DEST/vsuite_ncu.tar.gz" -C "$WORK" vsuite
cp "$V/run.log" "$DEST/vsuite_run.log"
log "done in $(( $(date +%s) - T0 )) s"
