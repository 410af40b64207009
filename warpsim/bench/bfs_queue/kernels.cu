// bfs_queue: queue-based breadth-first search (the shape of Parboil bfs's BFS_kernel): one
// thread per node of the current frontier queue; a neighbour is claimed with a global atomicMin
// on its cost, claimed nodes go to a per-block queue in shared memory (shared atomicAdd), and the
// block appends its queue to the global next frontier with one global atomicAdd. The host reads
// the next frontier's size back after every level.
#define THREADS 512
#define LOCAL_Q 2048

extern "C" __global__ void bfs_level(const int* q_in, int n_in, int* q_out, int* tail,
                                     const int* row_ptr, const int* cols, int* cost, int level)
{
    __shared__ int s_queue[LOCAL_Q];
    __shared__ int s_tail, s_base;
    const int tid = threadIdx.x;
    if (tid == 0) s_tail = 0;
    __syncthreads();
    const int i = blockIdx.x * THREADS + tid;
    if (i < n_in) {
        const int node = q_in[i];
        for (int e = row_ptr[node]; e < row_ptr[node + 1]; e++) {
            const int nb = cols[e];
            if (atomicMin(&cost[nb], level + 1) > level + 1) {
                const int pos = atomicAdd(&s_tail, 1);
                if (pos < LOCAL_Q) {
                    s_queue[pos] = nb;
                } else {
                    q_out[atomicAdd(tail, 1)] = nb;  // local queue overflow: straight to global
                }
            }
        }
    }
    __syncthreads();
    if (tid == 0) {
        if (s_tail > LOCAL_Q) s_tail = LOCAL_Q;
        s_base = atomicAdd(tail, s_tail);
    }
    __syncthreads();
    for (int k = tid; k < s_tail; k += THREADS) q_out[s_base + k] = s_queue[k];
}
