// myocyte: many independent ODE integrations, one per thread, with all state in registers
// (the shape of Rodinia myocyte: 32 threads per block, a long fully unrolled right-hand side,
// register-hungry fixed-step integration). The system is a 24-variable Lorenz-96 model standing
// in for the 91-equation cardiac myocyte model; each thread has its own forcing and initial
// state and takes `steps` classical Runge-Kutta steps.
#define NEQ 24

__device__ inline void rhs(const float* x, float* d, float forcing)
{
    d[0] = (x[1] - x[22]) * x[23] - x[0] + forcing;
    d[1] = (x[2] - x[23]) * x[0] - x[1] + forcing;
    d[2] = (x[3] - x[0]) * x[1] - x[2] + forcing;
    d[3] = (x[4] - x[1]) * x[2] - x[3] + forcing;
    d[4] = (x[5] - x[2]) * x[3] - x[4] + forcing;
    d[5] = (x[6] - x[3]) * x[4] - x[5] + forcing;
    d[6] = (x[7] - x[4]) * x[5] - x[6] + forcing;
    d[7] = (x[8] - x[5]) * x[6] - x[7] + forcing;
    d[8] = (x[9] - x[6]) * x[7] - x[8] + forcing;
    d[9] = (x[10] - x[7]) * x[8] - x[9] + forcing;
    d[10] = (x[11] - x[8]) * x[9] - x[10] + forcing;
    d[11] = (x[12] - x[9]) * x[10] - x[11] + forcing;
    d[12] = (x[13] - x[10]) * x[11] - x[12] + forcing;
    d[13] = (x[14] - x[11]) * x[12] - x[13] + forcing;
    d[14] = (x[15] - x[12]) * x[13] - x[14] + forcing;
    d[15] = (x[16] - x[13]) * x[14] - x[15] + forcing;
    d[16] = (x[17] - x[14]) * x[15] - x[16] + forcing;
    d[17] = (x[18] - x[15]) * x[16] - x[17] + forcing;
    d[18] = (x[19] - x[16]) * x[17] - x[18] + forcing;
    d[19] = (x[20] - x[17]) * x[18] - x[19] + forcing;
    d[20] = (x[21] - x[18]) * x[19] - x[20] + forcing;
    d[21] = (x[22] - x[19]) * x[20] - x[21] + forcing;
    d[22] = (x[23] - x[20]) * x[21] - x[22] + forcing;
    d[23] = (x[0] - x[21]) * x[22] - x[23] + forcing;
}

extern "C" __global__ void myocyte_solver(const float* d_init, const float* d_forcing,
                                          float* d_out, int instances, int steps, float dt)
{
    const int inst = blockIdx.x * blockDim.x + threadIdx.x;
    if (inst >= instances) return;
    const float forcing = d_forcing[inst];
    float x[NEQ], k1[NEQ], k2[NEQ], k3[NEQ], k4[NEQ], t[NEQ];
#pragma unroll
    for (int i = 0; i < NEQ; i++) x[i] = d_init[i * instances + inst];
    for (int s = 0; s < steps; s++) {
        rhs(x, k1, forcing);
#pragma unroll
        for (int i = 0; i < NEQ; i++) t[i] = x[i] + 0.5f * dt * k1[i];
        rhs(t, k2, forcing);
#pragma unroll
        for (int i = 0; i < NEQ; i++) t[i] = x[i] + 0.5f * dt * k2[i];
        rhs(t, k3, forcing);
#pragma unroll
        for (int i = 0; i < NEQ; i++) t[i] = x[i] + dt * k3[i];
        rhs(t, k4, forcing);
#pragma unroll
        for (int i = 0; i < NEQ; i++)
            x[i] = x[i] + dt / 6.0f * (k1[i] + 2.0f * k2[i] + 2.0f * k3[i] + k4[i]);
    }
#pragma unroll
    for (int i = 0; i < NEQ; i++) d_out[i * instances + inst] = x[i];
}
