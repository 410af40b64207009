// mummer: exact matches of short reads against a reference genome (the shape of Rodinia
// mummergpu / ISPASS-2009 MUM): a depth-capped suffix trie of the reference, built on the host,
// is read through a texture (4 children per node); 256 threads per block, one read per thread,
// the read held in registers as 2-bit packed bases. For every start position the thread walks
// the trie as far as the bases match and reports the length and the reference position of the
// match, and it keeps the read's longest match. Walk lengths are data-dependent, so warps
// diverge and texture reads scatter.
#define THREADS 256

extern "C" __global__ void mummer_match(cudaTextureObject_t nodes, const int* node_first,
                                        const unsigned int* packed_reads, int qlen, int nqueries,
                                        int max_depth, int min_match, int* match_len,
                                        int* match_ref, int* best)
{
    const int q = blockIdx.x * THREADS + threadIdx.x;
    if (q >= nqueries) return;
    const unsigned int w0 = packed_reads[2 * q], w1 = packed_reads[2 * q + 1];
    int best_len = 0, best_qpos = -1, best_rpos = -1;
    for (int s = 0; s < qlen; s++) {
        int node = 0, len = 0;
        while (s + len < qlen && len < max_depth) {
            const int p = s + len;
            const unsigned int w = (p < 16) ? w0 : w1;
            const int base = (w >> ((p & 15) * 2)) & 3;
            const int child = tex1Dfetch<int>(nodes, node * 4 + base);
            if (child < 0) break;
            node = child;
            len++;
        }
        int rpos = -1;
        if (len >= min_match) {
            rpos = node_first[node];
            if (len > best_len) {
                best_len = len;
                best_qpos = s;
                best_rpos = rpos;
            }
        } else {
            len = 0;
        }
        match_len[q * qlen + s] = len;
        match_ref[q * qlen + s] = rpos;
    }
    best[3 * q] = best_len;
    best[3 * q + 1] = best_qpos;
    best[3 * q + 2] = best_rpos;
}
