// b_plus_tree: batched B+ tree queries (the shape of Rodinia b+tree): one block of ORDER threads
// per query; at every level each thread tests whether the key falls between its slot's key and
// the next one, the matching thread publishes the child, and the block descends together.
// find_k returns the record of a key; find_range_k the first record and the length of a range.
#define ORDER 256

struct record {
    int value;
};

struct knode {
    int location;
    int indices[ORDER + 1];
    int keys[ORDER + 1];
    bool is_leaf;
    int num_keys;
};

extern "C" __global__ void find_k(long long height, const knode* knodesD, long long knodes_elem,
                                  const record* recordsD, long long* currKnodeD,
                                  long long* offsetD, const int* keysD, record* ansD)
{
    const int thid = threadIdx.x, bid = blockIdx.x;
    for (long long i = 0; i < height; i++) {
        if (knodesD[currKnodeD[bid]].keys[thid] <= keysD[bid] &&
            knodesD[currKnodeD[bid]].keys[thid + 1] > keysD[bid]) {
            if (knodesD[offsetD[bid]].indices[thid] < knodes_elem)
                offsetD[bid] = knodesD[offsetD[bid]].indices[thid];
        }
        __syncthreads();
        if (thid == 0) currKnodeD[bid] = offsetD[bid];
        __syncthreads();
    }
    if (knodesD[currKnodeD[bid]].keys[thid] == keysD[bid])
        ansD[bid].value = recordsD[knodesD[currKnodeD[bid]].indices[thid]].value;
}

extern "C" __global__ void find_range_k(long long height, const knode* knodesD,
                                        long long knodes_elem, long long* currKnodeD,
                                        long long* offsetD, long long* lastKnodeD,
                                        long long* offset_2D, const int* startD,
                                        const int* endD, int* recstartD, int* reclenD)
{
    const int thid = threadIdx.x, bid = blockIdx.x;
    for (long long i = 0; i < height; i++) {
        if (knodesD[currKnodeD[bid]].keys[thid] <= startD[bid] &&
            knodesD[currKnodeD[bid]].keys[thid + 1] > startD[bid]) {
            if (knodesD[currKnodeD[bid]].indices[thid] < knodes_elem)
                offsetD[bid] = knodesD[currKnodeD[bid]].indices[thid];
        }
        if (knodesD[lastKnodeD[bid]].keys[thid] <= endD[bid] &&
            knodesD[lastKnodeD[bid]].keys[thid + 1] > endD[bid]) {
            if (knodesD[lastKnodeD[bid]].indices[thid] < knodes_elem)
                offset_2D[bid] = knodesD[lastKnodeD[bid]].indices[thid];
        }
        __syncthreads();
        if (thid == 0) {
            currKnodeD[bid] = offsetD[bid];
            lastKnodeD[bid] = offset_2D[bid];
        }
        __syncthreads();
    }
    if (knodesD[currKnodeD[bid]].keys[thid] == startD[bid])
        recstartD[bid] = knodesD[currKnodeD[bid]].indices[thid];
    __syncthreads();
    if (knodesD[lastKnodeD[bid]].keys[thid] == endD[bid])
        reclenD[bid] = knodesD[lastKnodeD[bid]].indices[thid] - recstartD[bid] + 1;
}
