// kmeans: assignment step of k-means clustering (the shape of Rodinia kmeans): invert_mapping
// transposes the points to feature-major order once; kmeans_point (256 threads, one point per
// thread) reads the features through a texture and the cluster centres from constant memory and
// writes the index of the nearest centre. The host recomputes the centres each iteration.
#define MAX_CENTRE_FLOATS 4096

__constant__ float c_clusters[MAX_CENTRE_FLOATS];

extern "C" __global__ void invert_mapping(const float* input, float* output, int npoints,
                                          int nfeatures)
{
    const int point = blockIdx.x * blockDim.x + threadIdx.x;
    if (point < npoints) {
        for (int i = 0; i < nfeatures; i++)
            output[point + npoints * i] = input[point * nfeatures + i];
    }
}

extern "C" __global__ void kmeans_point(cudaTextureObject_t t_features, int nfeatures,
                                        int npoints, int nclusters, int* membership)
{
    const int point_id = blockIdx.x * blockDim.x + threadIdx.x;
    if (point_id >= npoints) return;
    float min_dist = 3.402823466e+38f;
    int index = -1;
    for (int i = 0; i < nclusters; i++) {
        float dist = 0.0f;
        const int cluster_base = i * nfeatures;
        for (int l = 0; l < nfeatures; l++) {
            const float diff = tex1Dfetch<float>(t_features, l * npoints + point_id) -
                               c_clusters[cluster_base + l];
            dist += diff * diff;
        }
        if (dist < min_dist) {
            min_dist = dist;
            index = i;
        }
    }
    membership[point_id] = index;
}
