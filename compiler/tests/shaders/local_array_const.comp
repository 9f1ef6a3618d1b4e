#version 450
// Function-local arrays and vectors indexed only by constants: promoted to SSA values.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { vec4 a[]; };
layout(set = 0, binding = 1) writeonly buffer O { vec4 o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 v[3];
    v[0] = a[i];
    v[1] = a[(i + 1u) % 256u];
    v[2] = v[0] * v[1].yzwx;
    v[2].y += v[0][3];
    o[i] = v[2] + v[1];
}
