// neural_net: forward pass of a LeNet-style convolutional network for 29x29 digit images (the
// shape of the ISPASS-2009 NN benchmark): four kernels, one per layer, one image per grid row.
// Layer 1: 6 feature maps of 13x13 (a block of 13x13 threads per map), 5x5 kernels, stride 2;
// layer 2: 50 maps of 5x5 (5x5 threads per map) over all 6 maps of layer 1; layer 3: 100 fully
// connected neurons (one thread each); layer 4: 10 outputs. Activation 1.7159 tanh(2x/3).
__device__ inline float activate(float x) { return 1.7159f * tanhf(0.66666667f * x); }

extern "C" __global__ void execute_first_layer(const float* layer0, const float* weights,
                                               float* layer1)
{
    const int map = blockIdx.x, img = blockIdx.y;
    const int x = threadIdx.x, y = threadIdx.y;
    const float* in = layer0 + img * 29 * 29;
    const float* w = weights + map * 26;  // bias + 25 taps
    float sum = w[0];
    for (int ky = 0; ky < 5; ky++)
        for (int kx = 0; kx < 5; kx++) sum += w[1 + ky * 5 + kx] * in[(2 * y + ky) * 29 + 2 * x + kx];
    layer1[img * 6 * 169 + map * 169 + y * 13 + x] = activate(sum);
}

extern "C" __global__ void execute_second_layer(const float* layer1, const float* weights,
                                                float* layer2)
{
    const int map = blockIdx.x, img = blockIdx.y;
    const int x = threadIdx.x, y = threadIdx.y;
    const float* in = layer1 + img * 6 * 169;
    const float* w = weights + map * (1 + 6 * 25);
    float sum = w[0];
    for (int m = 0; m < 6; m++)
        for (int ky = 0; ky < 5; ky++)
            for (int kx = 0; kx < 5; kx++)
                sum += w[1 + m * 25 + ky * 5 + kx] * in[m * 169 + (2 * y + ky) * 13 + 2 * x + kx];
    layer2[img * 1250 + map * 25 + y * 5 + x] = activate(sum);
}

extern "C" __global__ void execute_third_layer(const float* layer2, const float* weights,
                                               float* layer3)
{
    const int neuron = blockIdx.x, img = blockIdx.y;
    const float* in = layer2 + img * 1250;
    const float* w = weights + neuron * 1251;
    float sum = w[0];
    for (int i = 0; i < 1250; i++) sum += w[1 + i] * in[i];
    layer3[img * 100 + neuron] = activate(sum);
}

extern "C" __global__ void execute_fourth_layer(const float* layer3, const float* weights,
                                                float* layer4)
{
    const int neuron = blockIdx.x, img = blockIdx.y;
    const float* in = layer3 + img * 100;
    const float* w = weights + neuron * 101;
    float sum = w[0];
    for (int i = 0; i < 100; i++) sum += w[1 + i] * in[i];
    layer4[img * 10 + neuron] = activate(sum);
}
