// struct_param.cu: kernels taking structs by value.
// Exercises: .param .align N .b8 name[size] kernel parameters, ld.param of fields at byte
// offsets (mixed int/float/double/pointer fields with padding), a nested struct, and an array
// member indexed at run time (forces the param to be read with a computed offset or copied).
//
// Layouts (natural C alignment, little-endian):
//   struct Affine { float scale; float shift; int clamp_lo; int clamp_hi; };       // 16 bytes
//   struct Params { Affine aff; const float* src; float* dst; int n;
//                   double bias; float lut[4]; };                                   // 64 bytes
//     offsets: aff 0, src 16, dst 24, n 32, bias 40, lut 48.
//
// Kernels:
//   extern "C" __global__ void affine_struct(Params p)
//       i < p.n: v = p.src[i] * p.aff.scale + p.aff.shift + (float)p.bias
//                    + p.lut[i & 3];
//       p.dst[i] = fminf(fmaxf(v, (float)p.aff.clamp_lo), (float)p.aff.clamp_hi).
//   extern "C" __global__ void struct_and_scalars(int a, Affine f, double d, float* out)
//       out[threadIdx.x] = a * f.scale + f.shift + (float)d + (float)f.clamp_lo (one block).

struct Affine {
    float scale;
    float shift;
    int clamp_lo;
    int clamp_hi;
};

struct Params {
    Affine aff;
    const float* src;
    float* dst;
    int n;
    double bias;
    float lut[4];
};

extern "C" __global__ void affine_struct(Params p)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= p.n) {
        return;
    }
    float v = p.src[i] * p.aff.scale + p.aff.shift + (float)p.bias + p.lut[i & 3];
    p.dst[i] = fminf(fmaxf(v, (float)p.aff.clamp_lo), (float)p.aff.clamp_hi);
}

extern "C" __global__ void struct_and_scalars(int a, Affine f, double d, float* out)
{
    out[threadIdx.x] = (float)a * f.scale + f.shift + (float)d + (float)f.clamp_lo;
}
