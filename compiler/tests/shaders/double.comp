#version 450
// Turnip's reference workload: data[i] = 2 * i.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Data { uint data[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    data[i] = i * 2u;
}
