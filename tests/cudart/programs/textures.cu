// Texture objects: 1-D over linear memory (float, and uchar read as normalized float),
// 2-D over a cudaArray (clamped reads outside it), 2-D over pitched memory (int texels).
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    printf("FAIL %s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
    return 1; } } while (0)

__global__ void gather(cudaTextureObject_t tex, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<float>(tex, (i * 7) % n);
}

__global__ void normalized(cudaTextureObject_t tex, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<float>(tex, i);
}

__global__ void sample2d(cudaTextureObject_t tex, float* out, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;   // one extra column and row each side
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w + 2 && y < h + 2)
        out[y * (w + 2) + x] = tex2D<float>(tex, x - 1 + 0.5f, y - 1 + 0.5f);
}

__global__ void sample_pitch(cudaTextureObject_t tex, int* out, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) out[y * w + x] = tex2D<int>(tex, x + 0.5f, y + 0.5f) * 2;
}

static cudaTextureObject_t make_texture(const cudaResourceDesc& res, cudaTextureReadMode read) {
    cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModePoint;
    td.readMode = read;
    td.normalizedCoords = 0;
    cudaTextureObject_t tex = 0;
    if (cudaCreateTextureObject(&tex, &res, &td, nullptr) != cudaSuccess) return 0;
    return tex;
}

int main() {
    // 1-D float over linear memory
    const int n = 100;
    float h[n], out[n];
    for (int i = 0; i < n; ++i) h[i] = i * 1.5f;
    float *d, *d_out;
    CHECK(cudaMalloc(&d, sizeof h));
    CHECK(cudaMalloc(&d_out, sizeof out));
    CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    cudaResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypeLinear;
    res.res.linear.devPtr = d;
    res.res.linear.desc = cudaCreateChannelDesc<float>();
    res.res.linear.sizeInBytes = sizeof h;
    cudaTextureObject_t t1 = make_texture(res, cudaReadModeElementType);
    gather<<<1, 128>>>(t1, d_out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += out[i] != h[(i * 7) % n];
    printf("tex1Dfetch float: out[3] %.1f, %d wrong\n", out[3], bad);

    // 1-D unsigned char read as normalized float
    unsigned char bytes[n];
    for (int i = 0; i < n; ++i) bytes[i] = (unsigned char)(i * 5 % 256);
    unsigned char* d_bytes;
    CHECK(cudaMalloc(&d_bytes, sizeof bytes));
    CHECK(cudaMemcpy(d_bytes, bytes, sizeof bytes, cudaMemcpyHostToDevice));
    res.res.linear.devPtr = d_bytes;
    res.res.linear.desc = cudaCreateChannelDesc<unsigned char>();
    res.res.linear.sizeInBytes = sizeof bytes;
    cudaTextureObject_t t2 = make_texture(res, cudaReadModeNormalizedFloat);
    normalized<<<1, 128>>>(t2, d_out, n);
    CHECK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    int bad_norm = 0;
    for (int i = 0; i < n; ++i) {
        float want = bytes[i] / 255.0f;
        if (out[i] < want - 1e-6f || out[i] > want + 1e-6f) ++bad_norm;
    }
    printf("normalized uchar: out[51] %.4f, %d wrong\n", out[51], bad_norm);

    // 2-D over a cudaArray
    const int w = 8, hgt = 5;
    float img[hgt][w];
    for (int y = 0; y < hgt; ++y)
        for (int x = 0; x < w; ++x) img[y][x] = y * 100.0f + x;
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t arr;
    CHECK(cudaMallocArray(&arr, &fd, w, hgt));
    CHECK(cudaMemcpy2DToArray(arr, 0, 0, img, w * sizeof(float), w * sizeof(float), hgt,
                              cudaMemcpyHostToDevice));
    memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypeArray;
    res.res.array.array = arr;
    cudaTextureObject_t t3 = make_texture(res, cudaReadModeElementType);
    float* d_img;
    const int ow = w + 2, oh = hgt + 2;
    CHECK(cudaMalloc(&d_img, ow * oh * sizeof(float)));
    sample2d<<<dim3(1, 1), dim3(16, 8)>>>(t3, d_img, w, hgt);
    float got[oh][ow];
    CHECK(cudaMemcpy(got, d_img, sizeof got, cudaMemcpyDeviceToHost));
    int bad2 = 0;
    for (int y = 0; y < oh; ++y)
        for (int x = 0; x < ow; ++x) {
            int cx = x - 1 < 0 ? 0 : (x - 1 >= w ? w - 1 : x - 1);
            int cy = y - 1 < 0 ? 0 : (y - 1 >= hgt ? hgt - 1 : y - 1);
            bad2 += got[y][x] != img[cy][cx];
        }
    printf("tex2D array: corner %.0f, centre %.0f, far corner %.0f, %d wrong\n",
           got[0][0], got[3][4], got[oh - 1][ow - 1], bad2);

    // 2-D over pitched memory, int texels
    int ints[hgt][w];
    for (int y = 0; y < hgt; ++y)
        for (int x = 0; x < w; ++x) ints[y][x] = (y + 1) * (x - 3);
    int* d_pitched;
    size_t pitch;
    CHECK(cudaMallocPitch((void**)&d_pitched, &pitch, w * sizeof(int), hgt));
    CHECK(cudaMemcpy2D(d_pitched, pitch, ints, w * sizeof(int), w * sizeof(int), hgt,
                       cudaMemcpyHostToDevice));
    memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypePitch2D;
    res.res.pitch2D.devPtr = d_pitched;
    res.res.pitch2D.desc = cudaCreateChannelDesc<int>();
    res.res.pitch2D.width = w;
    res.res.pitch2D.height = hgt;
    res.res.pitch2D.pitchInBytes = pitch;
    cudaTextureObject_t t4 = make_texture(res, cudaReadModeElementType);
    int* d_int_out;
    CHECK(cudaMalloc(&d_int_out, sizeof ints));
    sample_pitch<<<dim3(1, 1), dim3(8, 8)>>>(t4, d_int_out, w, hgt);
    int int_out[hgt][w];
    CHECK(cudaMemcpy(int_out, d_int_out, sizeof int_out, cudaMemcpyDeviceToHost));
    int bad3 = 0;
    for (int y = 0; y < hgt; ++y)
        for (int x = 0; x < w; ++x) bad3 += int_out[y][x] != 2 * ints[y][x];
    printf("tex2D pitched int: out[4][7] %d, %d wrong\n", int_out[4][7], bad3);

    CHECK(cudaDestroyTextureObject(t1));
    CHECK(cudaDestroyTextureObject(t2));
    CHECK(cudaDestroyTextureObject(t3));
    CHECK(cudaDestroyTextureObject(t4));
    CHECK(cudaFreeArray(arr));
    CHECK(cudaFree(d));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_bytes));
    CHECK(cudaFree(d_img));
    CHECK(cudaFree(d_pitched));
    CHECK(cudaFree(d_int_out));
    bool ok = bad == 0 && bad_norm == 0 && bad2 == 0 && bad3 == 0;
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
