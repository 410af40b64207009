// nn: distance of every record to a target location (the shape of Rodinia nn's euclid kernel):
// 256 threads, one record (latitude, longitude) per thread; the host picks the k nearest.
struct LatLong {
    float lat;
    float lng;
};

extern "C" __global__ void euclid(const LatLong* d_locations, float* d_distances, int num_records,
                                  float lat, float lng)
{
    const int gid = blockDim.x * (gridDim.x * blockIdx.y + blockIdx.x) + threadIdx.x;
    if (gid < num_records) {
        const LatLong* loc = &d_locations[gid];
        d_distances[gid] = sqrtf((lat - loc->lat) * (lat - loc->lat) +
                                 (lng - loc->lng) * (lng - loc->lng));
    }
}
