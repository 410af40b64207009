// backprop: one training step of a 2-layer perceptron (the shape of Rodinia backprop): 16x16
// blocks; the forward kernel multiplies a 16x16 tile of input->hidden weights by 16 inputs held
// in shared memory and reduces the columns in a shared tree; the adjust kernel applies the
// weight update with momentum. The host does the hidden/output layers in between.
#define WIDTH 16
#define HEIGHT 16
#define ETA 0.3f
#define MOMENTUM 0.3f

extern "C" __global__ void bpnn_layerforward(const float* input_units, const float* input_weights,
                                             float* partial_sum, int in, int hid)
{
    __shared__ float input_node[HEIGHT];
    __shared__ float weight_matrix[HEIGHT][WIDTH];
    const int by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    const int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
    const int index_in = HEIGHT * by + ty + 1;
    if (tx == 0) input_node[ty] = input_units[index_in];
    __syncthreads();
    weight_matrix[ty][tx] = input_weights[index];
    __syncthreads();
    weight_matrix[ty][tx] = weight_matrix[ty][tx] * input_node[ty];
    __syncthreads();
    for (int i = 1; i <= 4; i++) {
        const int power_two = 1 << i;
        if (ty % power_two == 0)
            weight_matrix[ty][tx] = weight_matrix[ty][tx] + weight_matrix[ty + power_two / 2][tx];
        __syncthreads();
    }
    if (ty == 0) partial_sum[by * hid + tx] = weight_matrix[0][tx];
}

extern "C" __global__ void bpnn_adjust_weights(const float* delta, int hid, const float* ly,
                                               int in, float* w, float* oldw)
{
    const int by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    const int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
    const int index_y = HEIGHT * by + ty + 1;
    const int index_x = tx + 1;
    const float dw = ETA * delta[index_x] * ly[index_y] + MOMENTUM * oldw[index];
    w[index] += dw;
    oldw[index] = dw;
    __syncthreads();
    if (ty == 0 && by == 0) {
        const float db = ETA * delta[index_x] + MOMENTUM * oldw[index_x];
        w[index_x] += db;
        oldw[index_x] = db;
    }
}
