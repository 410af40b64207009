// mri_q: the Q matrix of non-Cartesian MRI reconstruction (the shape of Parboil mri-q):
// compute_phi_mag (512 threads) squares the k-space magnitudes; compute_q (256 threads, one voxel
// per thread) sums phiMag * (cos, sin)(2 pi k.x) over one chunk of k-space samples held in
// constant memory per launch, with the fast-math __sinf/__cosf.
#define KERNEL_Q_K_ELEMS_PER_GRID 1024
#define PI2 6.2831853071795864769f

struct kValues {
    float Kx, Ky, Kz, PhiMag;
};

__constant__ kValues ck[KERNEL_Q_K_ELEMS_PER_GRID];

extern "C" __global__ void compute_phi_mag(const float* phiR, const float* phiI, float* phiMag,
                                           int numK)
{
    const int indexK = blockIdx.x * blockDim.x + threadIdx.x;
    if (indexK < numK) {
        const float real = phiR[indexK], imag = phiI[indexK];
        phiMag[indexK] = real * real + imag * imag;
    }
}

extern "C" __global__ void compute_q(int numK, int kGlobalIndex, const float* x, const float* y,
                                     const float* z, float* Qr, float* Qi)
{
    const int xIndex = blockIdx.x * blockDim.x + threadIdx.x;
    const float sX = x[xIndex], sY = y[xIndex], sZ = z[xIndex];
    float sQr = Qr[xIndex], sQi = Qi[xIndex];
    for (int kIndex = 0; kIndex < KERNEL_Q_K_ELEMS_PER_GRID && kGlobalIndex < numK;
         kIndex++, kGlobalIndex++) {
        const float expArg = PI2 * (ck[kIndex].Kx * sX + ck[kIndex].Ky * sY + ck[kIndex].Kz * sZ);
        sQr += ck[kIndex].PhiMag * __cosf(expArg);
        sQi += ck[kIndex].PhiMag * __sinf(expArg);
    }
    Qr[xIndex] = sQr;
    Qi[xIndex] = sQi;
}
