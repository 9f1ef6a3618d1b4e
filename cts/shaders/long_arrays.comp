#version 450
// Storage blocks declaring arrays of 2^17 and 2^20 words, as VkFFT and wgpu declare
// theirs: reads and writes far into them, and their length().
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint words[131072]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint length_sum; uint results[1048576]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    results[1048575u - i * 4093u] = words[131071u - i * 509u] + i;
    if (i == 0u) {
        length_sum = uint(results.length() + words.length());
    }
}
