/* warpsim's libcudart: the CUDA runtime API forwarded to a warpsim Python process.
 *
 * Each call is one request on a Unix socket: name, 64-bit integer arguments, a byte blob;
 * the reply is a cudaError_t status, integers and a blob (warpsim/cudart/server.py has the
 * Python side). Host memory is read and written here (the simulator never dereferences a host
 * pointer); device pointers are warpsim heap addresses. Every call is synchronous, so streams
 * and events are in order by construction.
 *
 * Connection: $WARPSIM_CUDART_SOCKET (set by `warpsim exec`), or else a server process
 * started here (`python -m warpsim.cudart.server --fd N`).
 * Built by warpsim/cudart/build.py with gcc against the CUDA runtime headers (for the
 * structure layouts); the calls this file does not define get generated stubs that print
 * "warpsim: <call> is not supported" and return cudaErrorNotSupported.
 */
#define _GNU_SOURCE
#include <cuda_runtime_api.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef WS_PYTHON
#define WS_PYTHON "python3"
#endif
#ifndef WS_PYTHONPATH
#define WS_PYTHONPATH ""
#endif
#define WS_EXPORT __attribute__((visibility("default")))
#define NARGS(...) (sizeof((uint64_t[]){__VA_ARGS__}) / sizeof(uint64_t))
#define IN(...) (uint64_t[]){__VA_ARGS__}, (int)NARGS(__VA_ARGS__)
#define U(p) ((uint64_t)(uintptr_t)(p))

typedef struct {
    int status;
    int n;
    uint64_t v[64];
    unsigned char *blob;
    uint64_t blob_len;
} ws_reply;

static int ws_fd = -1;
static int ws_broken = 0;
static pthread_mutex_t ws_lock = PTHREAD_MUTEX_INITIALIZER;
static __thread cudaError_t ws_last_error = cudaSuccess;

/* ---------------------------------------------------------------- transport */

static int ws_write_all(const void *buf, size_t n) {
    const char *p = buf;
    while (n) {
        ssize_t k = send(ws_fd, p, n, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        p += k; n -= (size_t)k;
    }
    return 0;
}

static int ws_read_all(void *buf, size_t n) {
    char *p = buf;
    while (n) {
        ssize_t k = recv(ws_fd, p, n, 0);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;
        p += k; n -= (size_t)k;
    }
    return 0;
}

static int ws_spawn_server(void) {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) return -1;
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        char fdarg[16];
        close(sv[0]);
        snprintf(fdarg, sizeof fdarg, "%d", sv[1]);
        const char *py = getenv("WARPSIM_PYTHON");
        if (!py || !*py) py = WS_PYTHON;
        if (WS_PYTHONPATH[0]) {
            const char *old = getenv("PYTHONPATH");
            size_t len = strlen(WS_PYTHONPATH) + (old ? strlen(old) : 0) + 2;
            char *pp = malloc(len);
            snprintf(pp, len, "%s%s%s", WS_PYTHONPATH, old && *old ? ":" : "", old ? old : "");
            setenv("PYTHONPATH", pp, 1);
        }
        execlp(py, py, "-m", "warpsim.cudart.server", "--fd", fdarg, (char *)NULL);
        fprintf(stderr, "warpsim: cannot start %s: %s (set WARPSIM_PYTHON)\n", py,
                strerror(errno));
        _exit(127);
    }
    close(sv[1]);
    return sv[0];
}

static int ws_connect(void) {
    const char *path = getenv("WARPSIM_CUDART_SOCKET");
    if (path && *path) {
        struct sockaddr_un addr;
        int fd = socket(AF_UNIX, SOCK_STREAM, 0);
        if (fd < 0) return -1;
        memset(&addr, 0, sizeof addr);
        addr.sun_family = AF_UNIX;
        strncpy(addr.sun_path, path, sizeof addr.sun_path - 1);
        if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
            close(fd);
            return -1;
        }
        return fd;
    }
    return ws_spawn_server();
}

/* One request/reply. Returns the reply status (cudaErrorInitializationError when the
 * simulator cannot be reached); the caller frees r->blob. */
static int ws_call(const char *name, const uint64_t *in, int nin, const void *blob,
                   uint64_t blen, ws_reply *r) {
    r->status = cudaErrorInitializationError;
    r->n = 0; r->blob = NULL; r->blob_len = 0;
    pthread_mutex_lock(&ws_lock);
    if (ws_fd < 0 && !ws_broken) {
        ws_fd = ws_connect();
        if (ws_fd < 0) {
            ws_broken = 1;
            fprintf(stderr, "warpsim: cannot reach the simulator (%s); run the program with "
                    "`warpsim exec -- ./app`\n", strerror(errno));
        }
    }
    if (ws_fd < 0) goto out;
    uint16_t nl = (uint16_t)strlen(name), ni = (uint16_t)nin;
    uint32_t total = 2 + nl + 2 + 8u * ni + (uint32_t)blen;
    if (blen > 0xFFFFFFFFull - 4096) {
        fprintf(stderr, "warpsim: %s: transfer of %llu bytes is too large\n", name,
                (unsigned long long)blen);
        r->status = cudaErrorInvalidValue;
        goto out;
    }
    if (ws_write_all(&total, 4) || ws_write_all(&nl, 2) || ws_write_all(name, nl) ||
        ws_write_all(&ni, 2) || (ni && ws_write_all(in, 8u * ni)) ||
        (blen && ws_write_all(blob, blen)))
        goto lost;
    uint32_t rlen;
    int32_t status;
    uint16_t rn;
    if (ws_read_all(&rlen, 4) || ws_read_all(&status, 4) || ws_read_all(&rn, 2)) goto lost;
    if (rn > 64 || 6u + 8u * rn > rlen) goto lost;
    if (rn && ws_read_all(r->v, 8u * rn)) goto lost;
    r->n = rn;
    r->blob_len = rlen - 6u - 8u * rn;
    if (r->blob_len) {
        r->blob = malloc(r->blob_len);
        if (!r->blob || ws_read_all(r->blob, r->blob_len)) goto lost;
    }
    r->status = status;
    goto out;
lost:
    fprintf(stderr, "warpsim: lost the connection to the simulator during %s\n", name);
    close(ws_fd);
    ws_fd = -1;
    ws_broken = 1;
    r->status = cudaErrorUnknown;
out:
    pthread_mutex_unlock(&ws_lock);
    return r->status;
}

static cudaError_t ws_ret(int status) {
    if (status != cudaSuccess) ws_last_error = (cudaError_t)status;
    return (cudaError_t)status;
}

/* A call whose reply carries nothing the caller needs. */
static cudaError_t ws_simple(const char *name, const uint64_t *in, int nin, const void *blob,
                             uint64_t blen) {
    ws_reply r;
    ws_call(name, in, nin, blob, blen, &r);
    free(r.blob);
    return ws_ret(r.status);
}

/* ---------------------------------------------------------------- device printf */

/* A launch's device printf text (the blob of its reply) is kept here and written to the
 * program's own stdout (the C FILE*, so it interleaves with the program's printf) at the next
 * synchronisation point, as CUDA does: the next launch, cudaDeviceSynchronize,
 * cudaStreamSynchronize, cudaEventSynchronize, a copy, cudaDeviceReset, a stream callback;
 * and, unlike CUDA, at program exit too. */
static char *ws_printf_buf = NULL;
static size_t ws_printf_len = 0, ws_printf_cap = 0;
static pthread_mutex_t ws_printf_lock = PTHREAD_MUTEX_INITIALIZER;

static void ws_printf_keep(const unsigned char *text, size_t n) {
    if (!n) return;
    pthread_mutex_lock(&ws_printf_lock);
    if (ws_printf_len + n > ws_printf_cap) {
        size_t cap = 2 * (ws_printf_len + n);
        char *grown = realloc(ws_printf_buf, cap);
        if (!grown) {  /* out of memory: print what we have, then this text, right away */
            fwrite(ws_printf_buf, 1, ws_printf_len, stdout);
            fwrite(text, 1, n, stdout);
            fflush(stdout);
            ws_printf_len = 0;
            pthread_mutex_unlock(&ws_printf_lock);
            return;
        }
        ws_printf_buf = grown;
        ws_printf_cap = cap;
    }
    memcpy(ws_printf_buf + ws_printf_len, text, n);
    ws_printf_len += n;
    pthread_mutex_unlock(&ws_printf_lock);
}

static void ws_printf_flush(void) {
    pthread_mutex_lock(&ws_printf_lock);
    if (ws_printf_len) {
        fwrite(ws_printf_buf, 1, ws_printf_len, stdout);
        fflush(stdout);
        ws_printf_len = 0;
    }
    pthread_mutex_unlock(&ws_printf_lock);
}

__attribute__((destructor)) static void ws_printf_at_exit(void) { ws_printf_flush(); }

WS_EXPORT int warpsim_unsupported(const char *name) {
    fprintf(stderr, "warpsim: %s is not supported\n", name);
    ws_last_error = cudaErrorNotSupported;
    return cudaErrorNotSupported;
}

/* ---------------------------------------------------------------- registration */

static void ws_register_managed_var(void **handle, void **host_ptr, const char *name,
                                    size_t size);
static void ws_managed_sync(int to_device);
static int ws_any_managed = 0;

extern void **__cudaRegisterFatBinary(void *fatCubin);
extern void __cudaRegisterFatBinaryEnd(void **handle);
extern void __cudaUnregisterFatBinary(void **handle);
extern void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                                   const char *deviceName, int thread_limit, uint3 *tid,
                                   uint3 *bid, dim3 *bDim, dim3 *gDim, int *wSize);
extern void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress,
                              const char *deviceName, int ext, size_t size, int constant,
                              int global);
extern void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress,
                                     char *deviceAddress, const char *deviceName, int ext,
                                     size_t size, int constant, int global);
extern void __cudaRegisterTexture(void **handle, const void *hostVar, const void **deviceAddress,
                                  const char *deviceName, int dim, int norm, int ext);
extern void __cudaRegisterSurface(void **handle, const void *hostVar, const void **deviceAddress,
                                  const char *deviceName, int dim, int ext);
extern char __cudaInitModule(void **handle);
extern unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                            void *stream);
extern cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
                                              void *stream);
extern cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *fun);
extern cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                      void **args, size_t sharedMem, cudaStream_t stream);

typedef struct { int magic; int version; const unsigned long long *data; void *other; } ws_wrapper;

WS_EXPORT void **__cudaRegisterFatBinary(void *fatCubin) {
    const ws_wrapper *w = fatCubin;
    void **handle = calloc(1, sizeof(void *));
    if (!w || w->magic != 0x466243B1 || !w->data) {
        fprintf(stderr, "warpsim: __cudaRegisterFatBinary: not an nvcc fat binary wrapper\n");
        return handle;
    }
    const unsigned char *data = (const unsigned char *)w->data;
    uint16_t hsize; uint64_t size;
    memcpy(&hsize, data + 6, 2);
    memcpy(&size, data + 8, 8);
    ws_reply r;
    if (ws_call("__register_fatbin", IN((uint64_t)w->version), data, hsize + size, &r) == 0
        && r.n >= 1)
        *handle = (void *)(uintptr_t)r.v[0];
    free(r.blob);
    return handle;
}

WS_EXPORT void __cudaRegisterFatBinaryEnd(void **handle) { (void)handle; }

WS_EXPORT void __cudaUnregisterFatBinary(void **handle) {
    /* Process exit: the server notices the closed connection; pending printf text goes out. */
    (void)handle;
    ws_printf_flush();
}

WS_EXPORT void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                                      const char *deviceName, int thread_limit, uint3 *tid,
                                      uint3 *bid, dim3 *bDim, dim3 *gDim, int *wSize) {
    (void)deviceName; (void)thread_limit; (void)tid; (void)bid; (void)bDim; (void)gDim;
    (void)wSize;
    ws_simple("__register_function", IN(U(*handle), U(hostFun)), deviceFun, strlen(deviceFun));
}

WS_EXPORT void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress,
                                 const char *deviceName, int ext, size_t size, int constant,
                                 int global) {
    (void)deviceName; (void)ext; (void)global;
    ws_simple("__register_var", IN(U(*handle), U(hostVar), size, (uint64_t)constant),
              deviceAddress, strlen(deviceAddress));
}

WS_EXPORT void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress,
                                        char *deviceAddress, const char *deviceName, int ext,
                                        size_t size, int constant, int global) {
    (void)deviceName; (void)ext; (void)constant; (void)global;
    ws_register_managed_var(handle, hostVarPtrAddress, deviceAddress, size);
}

WS_EXPORT void __cudaRegisterTexture(void **handle, const void *hostVar,
                                     const void **deviceAddress, const char *deviceName,
                                     int dim, int norm, int ext) {
    (void)handle; (void)hostVar; (void)deviceAddress; (void)dim; (void)norm; (void)ext;
    fprintf(stderr, "warpsim: texture reference %s: texture references are not supported "
            "(removed in CUDA 12; use texture objects)\n", deviceName);
}

WS_EXPORT void __cudaRegisterSurface(void **handle, const void *hostVar,
                                     const void **deviceAddress, const char *deviceName,
                                     int dim, int ext) {
    (void)handle; (void)hostVar; (void)deviceAddress; (void)dim; (void)ext;
    fprintf(stderr, "warpsim: surface reference %s is not supported\n", deviceName);
}

WS_EXPORT char __cudaInitModule(void **handle) {
    (void)handle;
    ws_managed_sync(-1);  /* give __managed__ variables their initial values */
    return 1;
}

/* ---------------------------------------------------------------- launch */

typedef struct { dim3 grid, block; size_t shmem; void *stream; } ws_config;
static __thread ws_config ws_cfg_stack[16];
static __thread int ws_cfg_depth = 0;

WS_EXPORT unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                               void *stream) {
    if (ws_cfg_depth >= 16) return 1;
    ws_cfg_stack[ws_cfg_depth++] = (ws_config){gridDim, blockDim, sharedMem, stream};
    return 0;
}

WS_EXPORT cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim,
                                                 size_t *sharedMem, void *stream) {
    if (ws_cfg_depth <= 0) return ws_ret(cudaErrorInvalidConfiguration);
    ws_config c = ws_cfg_stack[--ws_cfg_depth];
    *gridDim = c.grid; *blockDim = c.block; *sharedMem = c.shmem;
    *(void **)stream = c.stream;
    return cudaSuccess;
}

typedef struct ws_layout { const void *func; uint64_t nbytes; int n; uint32_t off[256];
                           uint32_t size[256]; struct ws_layout *next; } ws_layout;
static ws_layout *ws_layouts = NULL;

static const ws_layout *ws_get_layout(const void *func, int *status) {
    pthread_mutex_lock(&ws_lock);
    for (ws_layout *l = ws_layouts; l; l = l->next)
        if (l->func == func) { pthread_mutex_unlock(&ws_lock); return l; }
    pthread_mutex_unlock(&ws_lock);
    ws_reply r;
    *status = ws_call("__layout", IN(U(func)), NULL, 0, &r);
    if (*status) { free(r.blob); return NULL; }
    ws_layout *l = calloc(1, sizeof *l);
    l->func = func;
    l->nbytes = r.v[0];
    l->n = (int)r.v[1] < 256 ? (int)r.v[1] : 256;
    for (int i = 0; i < l->n && (uint64_t)(8 * i + 8) <= r.blob_len; i++) {
        memcpy(&l->off[i], r.blob + 8 * i, 4);
        memcpy(&l->size[i], r.blob + 8 * i + 4, 4);
    }
    free(r.blob);
    pthread_mutex_lock(&ws_lock);
    l->next = ws_layouts;
    ws_layouts = l;
    pthread_mutex_unlock(&ws_lock);
    return l;
}

/* Stream capture (shim_graph.c). */
static int ws_is_capturing(cudaStream_t s);
static cudaError_t ws_capture_kernel(cudaStream_t s, const void *func, dim3 gd, dim3 bd,
                                     const unsigned char *params, uint64_t n, size_t shmem);
static cudaError_t ws_capture_copy(cudaStream_t s, void *dst, const void *src, size_t count,
                                   enum cudaMemcpyKind kind);
static cudaError_t ws_capture_set(cudaStream_t s, void *dst, int value, size_t count);
static cudaError_t ws_capture_host(cudaStream_t s, cudaHostFn_t fn, cudaStreamCallback_t cb,
                                   void *user);

/* Run a launch whose parameter buffer is packed already (a launch, or a graph's kernel). */
static cudaError_t ws_launch_params(const void *func, dim3 g, dim3 b,
                                    const unsigned char *buf, uint64_t nbytes, size_t shmem,
                                    cudaStream_t stream, int coop) {
    ws_printf_flush();  /* a launch is a synchronisation point for earlier printf output */
    if (ws_any_managed) ws_managed_sync(1);  /* host writes to managed memory -> device */
    ws_reply r;
    ws_call("__launch", IN(U(func), g.x, g.y, g.z, b.x, b.y, b.z, shmem, U(stream), coop),
            buf, nbytes, &r);
    if (r.status == cudaSuccess) ws_printf_keep(r.blob, r.blob_len);  /* device printf */
    free(r.blob);
    if (ws_any_managed) ws_managed_sync(0);  /* and the kernel's writes back */
    return ws_ret(r.status);
}

/* coop: a cooperative launch (all blocks resident, grid sync allowed) */
static cudaError_t ws_launch(const void *func, dim3 g, dim3 b, void **args, size_t shmem,
                             cudaStream_t stream, int coop) {
    int status = 0;
    const ws_layout *l = ws_get_layout(func, &status);
    if (!l) return ws_ret(status);
    unsigned char *buf = calloc(1, l->nbytes ? l->nbytes : 1);
    for (int i = 0; i < l->n; i++) memcpy(buf + l->off[i], args[i], l->size[i]);
    cudaError_t e = ws_is_capturing(stream)
        ? ws_ret(ws_capture_kernel(stream, func, g, b, buf, l->nbytes, shmem))
        : ws_launch_params(func, g, b, buf, l->nbytes, shmem, stream, coop);
    free(buf);
    return e;
}

WS_EXPORT cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim,
                                       void **args, size_t sharedMem, cudaStream_t stream) {
    return ws_launch(func, gridDim, blockDim, args, sharedMem, stream, 0);
}

WS_EXPORT cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *fun) {
    *kernel = (cudaKernel_t)fun;  /* a kernel handle is its host stub here */
    return cudaSuccess;
}

WS_EXPORT cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                         void **args, size_t sharedMem, cudaStream_t stream) {
    return ws_launch((const void *)kernel, gridDim, blockDim, args, sharedMem, stream, 0);
}

WS_EXPORT cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func,
                                          void **args) {
    int coop = 0;
    for (unsigned i = 0; i < config->numAttrs; i++)
        if (config->attrs[i].id == cudaLaunchAttributeCooperative)
            coop = config->attrs[i].val.cooperative != 0;
    return ws_launch(func, config->gridDim, config->blockDim, args, config->dynamicSmemBytes,
                     config->stream, coop);
}

WS_EXPORT cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim,
                                                  dim3 blockDim, void **args, size_t sharedMem,
                                                  cudaStream_t stream) {
    return ws_launch(func, gridDim, blockDim, args, sharedMem, stream, 1);
}

WS_EXPORT cudaError_t cudaGetKernel(cudaKernel_t *kernelPtr, const void *entryFuncAddr) {
    return __cudaGetKernel(kernelPtr, entryFuncAddr);
}

WS_EXPORT cudaError_t cudaGetFuncBySymbol(cudaFunction_t *functionPtr, const void *symbolPtr) {
    *functionPtr = (cudaFunction_t)symbolPtr;
    return cudaSuccess;
}

#include "shim_managed.c"
#include "shim_memory.c"
#include "shim_pool.c"
#include "shim_device.c"
#include "shim_graph.c"
#include "shim_graph_node.c"
