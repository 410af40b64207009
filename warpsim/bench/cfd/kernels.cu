// cfd: explicit Euler solver on an unstructured mesh in double precision (the shape of Rodinia
// cfd's euler3d_double): 192 threads, one element per thread, structure-of-arrays variables;
// compute_flux gathers the four neighbours (or wall / far-field boundaries) through an index
// array, compute_step_factor and time_step are element-wise; the far-field state lives in
// constant memory. Per iteration: copy, step factor, then 3 Runge-Kutta stages of flux + step.
#define NDIM 3
#define NNB 4
#define NVAR (NDIM + 2)
#define VAR_DENSITY 0
#define VAR_MOMENTUM 1
#define VAR_DENSITY_ENERGY (VAR_MOMENTUM + NDIM)
#define GAMMA 1.4
#define SMOOTHING 0.2

struct double3s {
    double x, y, z;
};

__constant__ double ff_variable[NVAR];
__constant__ double ff_flux_contribution_momentum_x[NDIM];
__constant__ double ff_flux_contribution_momentum_y[NDIM];
__constant__ double ff_flux_contribution_momentum_z[NDIM];
__constant__ double ff_flux_contribution_density_energy[NDIM];

__device__ inline double3s velocity(double density, double3s m)
{
    return {m.x / density, m.y / density, m.z / density};
}

__device__ inline double speed_sqd(double3s v) { return v.x * v.x + v.y * v.y + v.z * v.z; }

__device__ inline double pressure(double density, double de, double ssq)
{
    return (GAMMA - 1.0) * (de - 0.5 * density * ssq);
}

__device__ inline double speed_of_sound(double density, double p) { return sqrt(GAMMA * p / density); }

__device__ inline void flux_contribution(double density, double3s m, double de, double p,
                                         double3s v, double3s& fmx, double3s& fmy, double3s& fmz,
                                         double3s& fde)
{
    fmx.x = v.x * m.x + p; fmx.y = v.x * m.y; fmx.z = v.x * m.z;
    fmy.x = fmx.y; fmy.y = v.y * m.y + p; fmy.z = v.y * m.z;
    fmz.x = fmx.z; fmz.y = fmy.z; fmz.z = v.z * m.z + p;
    const double de_p = de + p;
    fde.x = v.x * de_p; fde.y = v.y * de_p; fde.z = v.z * de_p;
}

extern "C" __global__ void initialize_variables(int nelr, double* variables)
{
    const int i = blockDim.x * blockIdx.x + threadIdx.x;
    for (int j = 0; j < NVAR; j++) variables[i + j * nelr] = ff_variable[j];
}

extern "C" __global__ void compute_step_factor(int nelr, const double* variables,
                                               const double* areas, double* step_factors)
{
    const int i = blockDim.x * blockIdx.x + threadIdx.x;
    const double density = variables[i + VAR_DENSITY * nelr];
    const double3s m = {variables[i + (VAR_MOMENTUM + 0) * nelr],
                        variables[i + (VAR_MOMENTUM + 1) * nelr],
                        variables[i + (VAR_MOMENTUM + 2) * nelr]};
    const double de = variables[i + VAR_DENSITY_ENERGY * nelr];
    const double3s v = velocity(density, m);
    const double ssq = speed_sqd(v);
    const double p = pressure(density, de, ssq);
    const double c = speed_of_sound(density, p);
    step_factors[i] = 0.5 / (sqrt(areas[i]) * (sqrt(ssq) + c));
}

extern "C" __global__ void compute_flux(int nelr, const int* elements_surrounding_elements,
                                        const double* normals, const double* variables,
                                        double* fluxes)
{
    const int i = blockDim.x * blockIdx.x + threadIdx.x;
    const double density_i = variables[i + VAR_DENSITY * nelr];
    const double3s m_i = {variables[i + (VAR_MOMENTUM + 0) * nelr],
                          variables[i + (VAR_MOMENTUM + 1) * nelr],
                          variables[i + (VAR_MOMENTUM + 2) * nelr]};
    const double de_i = variables[i + VAR_DENSITY_ENERGY * nelr];
    const double3s v_i = velocity(density_i, m_i);
    const double ssq_i = speed_sqd(v_i);
    const double speed_i = sqrt(ssq_i);
    const double p_i = pressure(density_i, de_i, ssq_i);
    const double c_i = speed_of_sound(density_i, p_i);
    double3s fmx_i, fmy_i, fmz_i, fde_i;
    flux_contribution(density_i, m_i, de_i, p_i, v_i, fmx_i, fmy_i, fmz_i, fde_i);
    double flux_density = 0.0, flux_de = 0.0;
    double3s flux_m = {0.0, 0.0, 0.0};
#pragma unroll 1
    for (int j = 0; j < NNB; j++) {
        const int nb = elements_surrounding_elements[i + j * nelr];
        const double3s normal = {normals[i + (j + 0 * NNB) * nelr],
                                 normals[i + (j + 1 * NNB) * nelr],
                                 normals[i + (j + 2 * NNB) * nelr]};
        const double normal_len = sqrt(normal.x * normal.x + normal.y * normal.y +
                                       normal.z * normal.z);
        if (nb >= 0) {
            const double density_nb = variables[nb + VAR_DENSITY * nelr];
            const double3s m_nb = {variables[nb + (VAR_MOMENTUM + 0) * nelr],
                                   variables[nb + (VAR_MOMENTUM + 1) * nelr],
                                   variables[nb + (VAR_MOMENTUM + 2) * nelr]};
            const double de_nb = variables[nb + VAR_DENSITY_ENERGY * nelr];
            const double3s v_nb = velocity(density_nb, m_nb);
            const double ssq_nb = speed_sqd(v_nb);
            const double p_nb = pressure(density_nb, de_nb, ssq_nb);
            const double c_nb = speed_of_sound(density_nb, p_nb);
            double3s fmx_nb, fmy_nb, fmz_nb, fde_nb;
            flux_contribution(density_nb, m_nb, de_nb, p_nb, v_nb, fmx_nb, fmy_nb, fmz_nb, fde_nb);
            double factor = -normal_len * SMOOTHING * 0.5 *
                            (speed_i + sqrt(ssq_nb) + c_i + c_nb);
            flux_density += factor * (density_i - density_nb);
            flux_de += factor * (de_i - de_nb);
            flux_m.x += factor * (m_i.x - m_nb.x);
            flux_m.y += factor * (m_i.y - m_nb.y);
            flux_m.z += factor * (m_i.z - m_nb.z);
            factor = 0.5 * normal.x;
            flux_density += factor * (m_nb.x + m_i.x);
            flux_de += factor * (fde_nb.x + fde_i.x);
            flux_m.x += factor * (fmx_nb.x + fmx_i.x);
            flux_m.y += factor * (fmy_nb.x + fmy_i.x);
            flux_m.z += factor * (fmz_nb.x + fmz_i.x);
            factor = 0.5 * normal.y;
            flux_density += factor * (m_nb.y + m_i.y);
            flux_de += factor * (fde_nb.y + fde_i.y);
            flux_m.x += factor * (fmx_nb.y + fmx_i.y);
            flux_m.y += factor * (fmy_nb.y + fmy_i.y);
            flux_m.z += factor * (fmz_nb.y + fmz_i.y);
            factor = 0.5 * normal.z;
            flux_density += factor * (m_nb.z + m_i.z);
            flux_de += factor * (fde_nb.z + fde_i.z);
            flux_m.x += factor * (fmx_nb.z + fmx_i.z);
            flux_m.y += factor * (fmy_nb.z + fmy_i.z);
            flux_m.z += factor * (fmz_nb.z + fmz_i.z);
        } else if (nb == -1) {  // wall
            flux_m.x += normal.x * p_i;
            flux_m.y += normal.y * p_i;
            flux_m.z += normal.z * p_i;
        } else if (nb == -2) {  // far field
            double factor = 0.5 * normal.x;
            flux_density += factor * (ff_variable[VAR_MOMENTUM + 0] + m_i.x);
            flux_de += factor * (ff_flux_contribution_density_energy[0] + fde_i.x);
            flux_m.x += factor * (ff_flux_contribution_momentum_x[0] + fmx_i.x);
            flux_m.y += factor * (ff_flux_contribution_momentum_y[0] + fmy_i.x);
            flux_m.z += factor * (ff_flux_contribution_momentum_z[0] + fmz_i.x);
            factor = 0.5 * normal.y;
            flux_density += factor * (ff_variable[VAR_MOMENTUM + 1] + m_i.y);
            flux_de += factor * (ff_flux_contribution_density_energy[1] + fde_i.y);
            flux_m.x += factor * (ff_flux_contribution_momentum_x[1] + fmx_i.y);
            flux_m.y += factor * (ff_flux_contribution_momentum_y[1] + fmy_i.y);
            flux_m.z += factor * (ff_flux_contribution_momentum_z[1] + fmz_i.y);
            factor = 0.5 * normal.z;
            flux_density += factor * (ff_variable[VAR_MOMENTUM + 2] + m_i.z);
            flux_de += factor * (ff_flux_contribution_density_energy[2] + fde_i.z);
            flux_m.x += factor * (ff_flux_contribution_momentum_x[2] + fmx_i.z);
            flux_m.y += factor * (ff_flux_contribution_momentum_y[2] + fmy_i.z);
            flux_m.z += factor * (ff_flux_contribution_momentum_z[2] + fmz_i.z);
        }
    }
    fluxes[i + VAR_DENSITY * nelr] = flux_density;
    fluxes[i + (VAR_MOMENTUM + 0) * nelr] = flux_m.x;
    fluxes[i + (VAR_MOMENTUM + 1) * nelr] = flux_m.y;
    fluxes[i + (VAR_MOMENTUM + 2) * nelr] = flux_m.z;
    fluxes[i + VAR_DENSITY_ENERGY * nelr] = flux_de;
}

extern "C" __global__ void time_step(int j, int nelr, const double* old_variables,
                                     double* variables, const double* step_factors,
                                     const double* fluxes)
{
    const int i = blockDim.x * blockIdx.x + threadIdx.x;
    const double factor = step_factors[i] / (double)(3 + 1 - j);
    for (int v = 0; v < NVAR; v++)
        variables[i + v * nelr] = old_variables[i + v * nelr] + factor * fluxes[i + v * nelr];
}
