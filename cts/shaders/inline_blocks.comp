#version 450
// Two uniform blocks, bound as inline uniform blocks of 80 and 16 bytes.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform First { uvec4 a[4]; uint scale; } first;
layout(set = 0, binding = 1) uniform Second { uvec4 add; } second;
layout(std430, set = 0, binding = 2) writeonly buffer Out { uint results[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    results[i] = first.a[i % 4u][(i / 4u) % 4u] * first.scale + second.add[i % 4u];
}
