// lbm: lattice-Boltzmann D3Q19 BGK stream-collide step (the shape of Parboil lbm's
// performStreamCollide): one thread per cell, a block per x-row (SIZE_X threads), structure-of-
// arrays distributions, all 19 directions written out so they stay in registers; obstacle cells
// bounce back, accelerated cells impose a velocity; results are pushed to the neighbours with
// periodic wrap-around.
#define OMEGA_FLUID 0
#define OBSTACLE 1
#define ACCEL 2
#define W0 (1.0f / 3.0f)
#define W1 (1.0f / 18.0f)
#define W2 (1.0f / 36.0f)

extern "C" __global__ void perform_stream_collide(const float* src, float* dst,
                                                  const unsigned char* flags, int nx, int ny,
                                                  int nz, float omega)
{
    const int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y;
    const int n = nx * ny * nz;
    const int cell = x + nx * (y + ny * z);
    const int xp = (x == nx - 1) ? 0 : x + 1, xm = (x == 0) ? nx - 1 : x - 1;
    const int yp = (y == ny - 1) ? 0 : y + 1, ym = (y == 0) ? ny - 1 : y - 1;
    const int zp = (z == nz - 1) ? 0 : z + 1, zm = (z == 0) ? nz - 1 : z - 1;
    const float f0 = src[0 * n + cell];
    const float f1 = src[1 * n + cell];
    const float f2 = src[2 * n + cell];
    const float f3 = src[3 * n + cell];
    const float f4 = src[4 * n + cell];
    const float f5 = src[5 * n + cell];
    const float f6 = src[6 * n + cell];
    const float f7 = src[7 * n + cell];
    const float f8 = src[8 * n + cell];
    const float f9 = src[9 * n + cell];
    const float f10 = src[10 * n + cell];
    const float f11 = src[11 * n + cell];
    const float f12 = src[12 * n + cell];
    const float f13 = src[13 * n + cell];
    const float f14 = src[14 * n + cell];
    const float f15 = src[15 * n + cell];
    const float f16 = src[16 * n + cell];
    const float f17 = src[17 * n + cell];
    const float f18 = src[18 * n + cell];
    float g0, g1, g2, g3, g4, g5, g6, g7, g8, g9, g10, g11, g12, g13, g14, g15, g16, g17, g18;
    const unsigned char flag = flags[cell];
    if (flag == OBSTACLE) {
        g0 = f0;
        g1 = f2;
        g2 = f1;
        g3 = f4;
        g4 = f3;
        g5 = f6;
        g6 = f5;
        g7 = f8;
        g8 = f7;
        g9 = f10;
        g10 = f9;
        g11 = f12;
        g12 = f11;
        g13 = f14;
        g14 = f13;
        g15 = f16;
        g16 = f15;
        g17 = f18;
        g18 = f17;
    } else {
        const float rho = f0 + f1 + f2 + f3 + f4 + f5 + f6 + f7 + f8 + f9 + f10 + f11 + f12 + f13 + f14 + f15 + f16 + f17 + f18;
        float ux = (f1 - f2 + f7 - f8 + f9 - f10 + f11 - f12 + f13 - f14) / rho;
        float uy = (f3 - f4 + f7 - f8 - f9 + f10 + f15 - f16 + f17 - f18) / rho;
        float uz = (f5 - f6 + f11 - f12 - f13 + f14 + f15 - f16 - f17 + f18) / rho;
        if (flag == ACCEL) { ux = 0.005f; uy = 0.002f; uz = 0.000f; }
        const float u2 = 1.5f * (ux * ux + uy * uy + uz * uz);
        g0 = (1.0f - omega) * f0 + omega * W0 * rho * (1.0f - u2);
        { const float cu = ux; g1 = (1.0f - omega) * f1 + omega * W1 * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2); }
        { const float cu = -ux; g2 = (1.0f - omega) * f2 + omega * W1 * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2); }
        { const float cu = uy; g3 = (1.0f - omega) * f3 + omega * W1 * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2); }
        { const float cu = - uy; g4 = (1.0f - omega) * f4 + omega * W1 * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2); }
        { const float cu = uz; g5 = (1.0f - omega) * f5 + omega * W1 * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2); }
        { const float cu = - uz; g6 = (1.0f - omega) * f6 + omega * W1 * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2); }
        { const float cu = ux + uy; g7 = (1.0f - omega) * f7 + omega * W2 * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2); }
        { const float cu = -ux - uy; g8 = (1.0f - omega) * f8 + omega * W2 * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2); }
        { const float cu = ux - uy; g9 = (1.0f - omega) * f9 + omega * W2 * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2); }
        { const float cu = -ux + uy; g10 = (1.0f - omega) * f10 + omega * W2 * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2); }
        { const float cu = ux + uz; g11 = (1.0f - omega) * f11 + omega * W2 * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2); }
        { const float cu = -ux - uz; g12 = (1.0f - omega) * f12 + omega * W2 * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2); }
        { const float cu = ux - uz; g13 = (1.0f - omega) * f13 + omega * W2 * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2); }
        { const float cu = -ux + uz; g14 = (1.0f - omega) * f14 + omega * W2 * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2); }
        { const float cu = uy + uz; g15 = (1.0f - omega) * f15 + omega * W2 * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2); }
        { const float cu = - uy - uz; g16 = (1.0f - omega) * f16 + omega * W2 * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2); }
        { const float cu = uy - uz; g17 = (1.0f - omega) * f17 + omega * W2 * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2); }
        { const float cu = - uy + uz; g18 = (1.0f - omega) * f18 + omega * W2 * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2); }
    }
    dst[0 * n + x + nx * (y + ny * z)] = g0;
    dst[1 * n + xp + nx * (y + ny * z)] = g1;
    dst[2 * n + xm + nx * (y + ny * z)] = g2;
    dst[3 * n + x + nx * (yp + ny * z)] = g3;
    dst[4 * n + x + nx * (ym + ny * z)] = g4;
    dst[5 * n + x + nx * (y + ny * zp)] = g5;
    dst[6 * n + x + nx * (y + ny * zm)] = g6;
    dst[7 * n + xp + nx * (yp + ny * z)] = g7;
    dst[8 * n + xm + nx * (ym + ny * z)] = g8;
    dst[9 * n + xp + nx * (ym + ny * z)] = g9;
    dst[10 * n + xm + nx * (yp + ny * z)] = g10;
    dst[11 * n + xp + nx * (y + ny * zp)] = g11;
    dst[12 * n + xm + nx * (y + ny * zm)] = g12;
    dst[13 * n + xp + nx * (y + ny * zm)] = g13;
    dst[14 * n + xm + nx * (y + ny * zp)] = g14;
    dst[15 * n + x + nx * (yp + ny * zp)] = g15;
    dst[16 * n + x + nx * (ym + ny * zm)] = g16;
    dst[17 * n + x + nx * (yp + ny * zm)] = g17;
    dst[18 * n + x + nx * (ym + ny * zp)] = g18;
}
