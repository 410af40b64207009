// Host-side helpers shared by the validation programs (never compiled by NVRTC).
//
// Output format ("WSVAL001"): an 8-byte magic, then records until end of file, each
//   char name[48] (NUL padded), char dtype[8] (numpy spelling: "<u4", "<f8", "str", ...),
//   uint64 count (elements, or bytes for "str"), then count * itemsize bytes, little endian.
// validation/pack_results.py turns these files into the JSON stored under results/.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <string>
#include <cuda_runtime.h>

#define CK(call)                                                                        \
    do {                                                                                \
        cudaError_t e_ = (call);                                                        \
        if (e_ != cudaSuccess) {                                                        \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,       \
                    cudaGetErrorString(e_));                                            \
            exit(2);                                                                    \
        }                                                                               \
    } while (0)

#define CK_LAUNCH() do { CK(cudaGetLastError()); CK(cudaDeviceSynchronize()); } while (0)

template <class T> struct DType;
template <> struct DType<float> { static const char* s() { return "<f4"; } };
template <> struct DType<double> { static const char* s() { return "<f8"; } };
template <> struct DType<int> { static const char* s() { return "<i4"; } };
template <> struct DType<unsigned> { static const char* s() { return "<u4"; } };
template <> struct DType<long long> { static const char* s() { return "<i8"; } };
template <> struct DType<unsigned long long> { static const char* s() { return "<u8"; } };
template <> struct DType<unsigned short> { static const char* s() { return "<u2"; } };

// 64-bit LCG (Knuth's MMIX constants); next32 returns the high half.
struct Lcg {
    unsigned long long s;
    explicit Lcg(unsigned long long seed) : s(seed * 2862933555777941757ULL + 3037000493ULL) {}
    unsigned next32() {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        return (unsigned)(s >> 32);
    }
    unsigned long long next64() {
        unsigned long long hi = next32();
        return (hi << 32) | next32();
    }
};

class VOut {
  public:
    explicit VOut(const char* path) {
        f_ = fopen(path, "wb");
        if (!f_) { perror(path); exit(2); }
        fwrite("WSVAL001", 1, 8, f_);
    }
    ~VOut() { if (f_) fclose(f_); }
    void raw(const char* name, const char* dtype, const void* data, unsigned long long count,
             size_t itemsize) {
        char nm[48] = {0}, dt[8] = {0};
        strncpy(nm, name, sizeof nm - 1);
        strncpy(dt, dtype, sizeof dt - 1);
        fwrite(nm, 1, sizeof nm, f_);
        fwrite(dt, 1, sizeof dt, f_);
        fwrite(&count, 8, 1, f_);
        if (count) fwrite(data, itemsize, count, f_);
    }
    template <class T> void put(const char* name, const std::vector<T>& v) {
        raw(name, DType<T>::s(), v.data(), v.size(), sizeof(T));
    }
    template <class T> void scalar(const char* name, T v) { raw(name, DType<T>::s(), &v, 1, sizeof(T)); }
    void text(const char* name, const std::string& s) { raw(name, "str", s.data(), s.size(), 1); }

  private:
    FILE* f_;
};

template <class T> T* to_dev(const std::vector<T>& h) {
    T* d = nullptr;
    CK(cudaMalloc(&d, h.size() * sizeof(T) + 16));
    CK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}
template <class T> T* dev_alloc(size_t n) {
    T* d = nullptr;
    CK(cudaMalloc(&d, n * sizeof(T) + 16));
    CK(cudaMemset(d, 0, n * sizeof(T) + 16));
    return d;
}
template <class T> std::vector<T> to_host(const T* d, size_t n) {
    std::vector<T> h(n);
    CK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
}

inline void put_device_info(VOut& o) {
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    int clk = 0, mclk = 0;
    cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0);
    cudaDeviceGetAttribute(&mclk, cudaDevAttrMemoryClockRate, 0);
    char buf[512];
    snprintf(buf, sizeof buf, "%s; cc %d.%d; %d SMs; L2 %d bytes; smem/SM %zu; clock attr %d kHz; mem clock %d kHz",
             p.name, p.major, p.minor, p.multiProcessorCount, p.l2CacheSize,
             p.sharedMemPerMultiprocessor, clk, mclk);
    o.text("device", buf);
}

inline const char* out_path(int argc, char** argv, const char* fallback) {
    return argc > 1 ? argv[1] : fallback;
}
