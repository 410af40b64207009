// ray: Whitted-style ray tracing of spheres (the shape of the ISPASS-2009 RAY benchmark): 16x8
// threads, one pixel per thread; every bounce loops over the scene (in constant memory) for the
// nearest hit and again for a shadow ray; the colour and reflectivity of each bounce go to
// per-thread local arrays that are combined afterwards. Rays terminate at different depths, so
// warps diverge.
#define MAX_SPHERES 16
#define MAX_DEPTH 4
#define EPS 1e-3f

struct Sphere {
    float cx, cy, cz, r;
    float cr, cg, cb, refl;
};

__constant__ Sphere c_spheres[MAX_SPHERES];
__constant__ float c_light[3];

__device__ inline float hit_sphere(const Sphere& s, float ox, float oy, float oz, float dx,
                                   float dy, float dz)
{
    const float lx = s.cx - ox, ly = s.cy - oy, lz = s.cz - oz;
    const float tca = lx * dx + ly * dy + lz * dz;
    const float d2 = lx * lx + ly * ly + lz * lz - tca * tca;
    const float r2 = s.r * s.r;
    if (d2 > r2) return -1.0f;
    const float thc = sqrtf(r2 - d2);
    const float t0 = tca - thc, t1 = tca + thc;
    return (t0 > EPS) ? t0 : t1;
}

extern "C" __global__ void render(float* img, int width, int height, int nspheres)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    float ox = 0.0f, oy = 0.0f, oz = -4.0f;
    float dx = 2.0f * (x + 0.5f) / width - 1.0f;
    float dy = (1.0f - 2.0f * (y + 0.5f) / height) * height / width;
    float dz = 2.0f;
    float inv = rsqrtf(dx * dx + dy * dy + dz * dz);
    dx *= inv; dy *= inv; dz *= inv;
    float hit_r[MAX_DEPTH], hit_g[MAX_DEPTH], hit_b[MAX_DEPTH], coef[MAX_DEPTH];
    int n = 0;
    for (int depth = 0; depth < MAX_DEPTH; depth++) {
        float tmin = 1e30f;
        int hit = -1;
        for (int s = 0; s < nspheres; s++) {
            const float t = hit_sphere(c_spheres[s], ox, oy, oz, dx, dy, dz);
            if (t > EPS && t < tmin) { tmin = t; hit = s; }
        }
        if (hit < 0) {
            hit_r[n] = 0.2f; hit_g[n] = 0.3f; hit_b[n] = 0.5f; coef[n] = 0.0f;
            n++;
            break;
        }
        const Sphere sp = c_spheres[hit];
        const float px = ox + tmin * dx, py = oy + tmin * dy, pz = oz + tmin * dz;
        float nx = px - sp.cx, ny = py - sp.cy, nz = pz - sp.cz;
        inv = rsqrtf(nx * nx + ny * ny + nz * nz);
        nx *= inv; ny *= inv; nz *= inv;
        float lx = c_light[0] - px, ly = c_light[1] - py, lz = c_light[2] - pz;
        const float ldist = sqrtf(lx * lx + ly * ly + lz * lz);
        lx /= ldist; ly /= ldist; lz /= ldist;
        float diff = nx * lx + ny * ly + nz * lz;
        diff = diff > 0.0f ? diff : 0.0f;
        const float sx = px + EPS * nx, sy = py + EPS * ny, sz = pz + EPS * nz;
        bool shadow = false;
        for (int s = 0; s < nspheres && !shadow; s++) {
            const float t = hit_sphere(c_spheres[s], sx, sy, sz, lx, ly, lz);
            if (t > EPS && t < ldist) shadow = true;
        }
        const float shade = 0.1f + (shadow ? 0.0f : 0.9f * diff);
        hit_r[n] = sp.cr * shade; hit_g[n] = sp.cg * shade; hit_b[n] = sp.cb * shade;
        coef[n] = sp.refl;
        n++;
        if (sp.refl <= 0.0f) break;
        const float dn = dx * nx + dy * ny + dz * nz;
        dx -= 2.0f * dn * nx; dy -= 2.0f * dn * ny; dz -= 2.0f * dn * nz;
        ox = sx; oy = sy; oz = sz;
    }
    float r = 0.0f, g = 0.0f, b = 0.0f;
    for (int i = n - 1; i >= 0; i--) {
        r = hit_r[i] + coef[i] * r;
        g = hit_g[i] + coef[i] * g;
        b = hit_b[i] + coef[i] * b;
    }
    float* out = img + 3 * (y * width + x);
    out[0] = r; out[1] = g; out[2] = b;
}
