// narrow_types.cu: 8-bit and 16-bit memory accesses and arithmetic.
// Exercises: ld/st.global.u8, .s8, .u16, .s16 (and their sign/zero extension into 32-bit
// registers), char4 vector loads (ld.global.v4.u8 or a 32-bit load), 16-bit saturating math
// done in 32 bits, narrowing stores.
//
// Kernels:
//   extern "C" __global__ void rgb_to_gray(const unsigned char* rgb, unsigned char* gray, int n)
//       gray[i] = (77 * r + 150 * g + 29 * b + 128) >> 8 with r, g, b = rgb[3i], rgb[3i+1],
//       rgb[3i+2], for i < n.
//   extern "C" __global__ void add_sat_s16(const short* a, const short* b, short* c, int n)
//       c[i] = clamp(a[i] + b[i], -32768, 32767), for i < n.
//   extern "C" __global__ void signed_bytes(const signed char* a, const unsigned short* b,
//                                           int* out, int n)
//       out[i] = a[i] * (int)b[i] - (a[i] >> 1), for i < n (sign-extended s8, zero-extended
//       u16; >> of a negative int is arithmetic).
//   extern "C" __global__ void pack_char4(const uchar4* in, unsigned* out, int n)
//       out[i] = in[i].x + in[i].y + in[i].z + in[i].w + (in[i].w << 24), for i < n.

extern "C" __global__ void rgb_to_gray(const unsigned char* rgb, unsigned char* gray, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned r = rgb[3 * i];
        unsigned g = rgb[3 * i + 1];
        unsigned b = rgb[3 * i + 2];
        gray[i] = (unsigned char)((77u * r + 150u * g + 29u * b + 128u) >> 8);
    }
}

extern "C" __global__ void add_sat_s16(const short* a, const short* b, short* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int s = (int)a[i] + (int)b[i];
        s = s > 32767 ? 32767 : (s < -32768 ? -32768 : s);
        c[i] = (short)s;
    }
}

extern "C" __global__ void signed_bytes(const signed char* a, const unsigned short* b, int* out,
                                        int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int x = a[i];
        out[i] = x * (int)b[i] - (x >> 1);
    }
}

extern "C" __global__ void pack_char4(const uchar4* in, unsigned* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        uchar4 v = in[i];
        out[i] = (unsigned)v.x + v.y + v.z + v.w + ((unsigned)v.w << 24);
    }
}
