// bfs: level-synchronous breadth-first search over a CSR graph (the shape of Rodinia bfs):
// one thread per node, 512 threads per block; Kernel 1 expands the frontier, Kernel 2 builds the
// next frontier and raises a flag that the host copies back after every level.
struct Node {
    int starting;
    int no_of_edges;
};

extern "C" __global__ void bfs_expand(const Node* g_nodes, const int* g_edges,
                                      unsigned char* g_mask, unsigned char* g_updating,
                                      const unsigned char* g_visited, int* g_cost, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n && g_mask[tid]) {
        g_mask[tid] = 0;
        for (int i = g_nodes[tid].starting; i < g_nodes[tid].no_of_edges + g_nodes[tid].starting;
             i++) {
            int id = g_edges[i];
            if (!g_visited[id]) {
                g_cost[id] = g_cost[tid] + 1;
                g_updating[id] = 1;
            }
        }
    }
}

extern "C" __global__ void bfs_update(unsigned char* g_mask, unsigned char* g_updating,
                                      unsigned char* g_visited, unsigned char* g_over, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n && g_updating[tid]) {
        g_mask[tid] = 1;
        g_visited[tid] = 1;
        *g_over = 1;
        g_updating[tid] = 0;
    }
}
