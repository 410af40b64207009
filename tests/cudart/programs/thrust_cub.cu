// Thrust and CUB as real code uses them: thrust::sort, thrust::reduce and
// cub::DeviceScan::InclusiveSum on device data, each checked on the host against a
// reference the program computes itself. Prints the inputs' checksums and results so that
// a test can compare them with numpy.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sort.h>
#include <thrust/reduce.h>
#include <cub/device/device_scan.cuh>

static unsigned next_value(unsigned &state) {  // a small LCG: same values on every host
    state = state * 1664525u + 1013904223u;
    return state >> 8;
}

#define CHECK(call)                                                              \
    do {                                                                         \
        cudaError_t err_ = (call);                                               \
        if (err_ != cudaSuccess) {                                               \
            printf("%s failed: %s\n", #call, cudaGetErrorString(err_));          \
            return 1;                                                            \
        }                                                                        \
    } while (0)

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    unsigned state = 12345u;
    std::vector<int> keys(n), vals(n);
    for (int i = 0; i < n; ++i) {
        keys[i] = (int)(next_value(state) % 200001u) - 100000;
        vals[i] = (int)(next_value(state) % 1000u);
    }
    int failures = 0;

    // thrust::sort (ascending) of signed keys
    thrust::device_vector<int> d_keys(keys.begin(), keys.end());
    thrust::sort(d_keys.begin(), d_keys.end());
    thrust::host_vector<int> sorted = d_keys;
    std::vector<int> ref_sorted(keys);
    std::sort(ref_sorted.begin(), ref_sorted.end());
    int sort_ok = 1;
    for (int i = 0; i < n; ++i)
        if (sorted[i] != ref_sorted[i]) sort_ok = 0;
    failures += !sort_ok;
    printf("sort %s first %d last %d\n", sort_ok ? "ok" : "FAILED", (int)sorted[0],
           (int)sorted[n - 1]);

    // thrust::reduce (sum) of the values
    thrust::device_vector<int> d_vals(vals.begin(), vals.end());
    long long sum = thrust::reduce(d_vals.begin(), d_vals.end(), 0LL);
    long long ref_sum = 0;
    for (int i = 0; i < n; ++i) ref_sum += vals[i];
    failures += sum != ref_sum;
    printf("reduce %s sum %lld\n", sum == ref_sum ? "ok" : "FAILED", sum);

    // cub::DeviceScan::InclusiveSum of the values, with its two-phase temporary storage
    int *d_in = nullptr, *d_out = nullptr;
    CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CHECK(cudaMalloc(&d_out, n * sizeof(int)));
    CHECK(cudaMemcpy(d_in, vals.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    void *d_temp = nullptr;
    size_t temp_bytes = 0;
    CHECK(cub::DeviceScan::InclusiveSum(d_temp, temp_bytes, d_in, d_out, n));
    CHECK(cudaMalloc(&d_temp, temp_bytes));
    CHECK(cub::DeviceScan::InclusiveSum(d_temp, temp_bytes, d_in, d_out, n));
    CHECK(cudaDeviceSynchronize());
    std::vector<int> scan(n);
    CHECK(cudaMemcpy(scan.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
    int scan_ok = 1, run = 0;
    for (int i = 0; i < n; ++i) {
        run += vals[i];
        if (scan[i] != run) scan_ok = 0;
    }
    failures += !scan_ok;
    printf("scan %s last %d\n", scan_ok ? "ok" : "FAILED", scan[n - 1]);
    CHECK(cudaFree(d_temp));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    printf("%s\n", failures ? "FAILED" : "PASSED");
    return failures ? 1 : 0;
}
