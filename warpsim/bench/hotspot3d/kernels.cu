// hotspot3d: 3-D transient thermal simulation, 7-point stencil (the shape of Rodinia hotspot3D's
// hotspotOpt1): 64x4 threads own an (x, y) column each and march up the layers, keeping the
// layer below, the current one and the one above in registers; the four in-plane neighbours
// come from global memory with clamped indices.
extern "C" __global__ void hotspot_opt1(const float* p, const float* tIn, float* tOut,
                                        float sdc, int nx, int ny, int nz, float ce, float cw,
                                        float cn, float cs, float ct, float cb, float cc,
                                        float amb_temp)
{
    const int i = blockDim.x * blockIdx.x + threadIdx.x;
    const int j = blockDim.y * blockIdx.y + threadIdx.y;
    const int xy = nx * ny;
    int c = i + j * nx;
    const int W = (i == 0) ? c : c - 1;
    const int E = (i == nx - 1) ? c : c + 1;
    const int N = (j == 0) ? c : c - nx;
    const int S = (j == ny - 1) ? c : c + nx;
    float temp1, temp2, temp3;
    temp1 = temp2 = tIn[c];
    temp3 = tIn[c + xy];
    tOut[c] = cc * temp2 + cw * tIn[W] + ce * tIn[E] + cs * tIn[S] + cn * tIn[N] + cb * temp1 +
              ct * temp3 + sdc * p[c] + ct * amb_temp;
    int w = W, e = E, n = N, s = S;
    c += xy; w += xy; e += xy; n += xy; s += xy;
    for (int k = 1; k < nz - 1; ++k) {
        temp1 = temp2;
        temp2 = temp3;
        temp3 = tIn[c + xy];
        tOut[c] = cc * temp2 + cw * tIn[w] + ce * tIn[e] + cs * tIn[s] + cn * tIn[n] +
                  cb * temp1 + ct * temp3 + sdc * p[c] + ct * amb_temp;
        c += xy; w += xy; e += xy; n += xy; s += xy;
    }
    temp1 = temp2;
    temp2 = temp3;
    tOut[c] = cc * temp2 + cw * tIn[w] + ce * tIn[e] + cs * tIn[s] + cn * tIn[n] + cb * temp1 +
              ct * temp3 + sdc * p[c] + ct * amb_temp;
}
