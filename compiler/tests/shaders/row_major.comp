#version 450
// Row-major matrices in a storage buffer and std140 matrices in a uniform buffer.
layout(local_size_x = 16) in;
layout(std430, row_major, set = 0, binding = 0) readonly buffer A { mat4x3 m[]; };
layout(std140, set = 0, binding = 1) uniform U { mat3 u; mat2 u2; };
layout(set = 0, binding = 2) writeonly buffer O { vec4 o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    mat4x3 a = m[i];
    o[i * 4u + 0u] = vec4(a[0], a[3].y);
    o[i * 4u + 1u] = vec4(m[i][2], m[i][1][2]);
    o[i * 4u + 2u] = vec4(u * a[1], u[2][1]);
    o[i * 4u + 3u] = vec4(u2[0], u2[1] * float(i));
}
