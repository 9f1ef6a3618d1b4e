#version 450
// Matrix arithmetic: products, transpose, determinant, outer product.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { mat4 m[]; };
layout(set = 0, binding = 1) readonly buffer V { vec4 v[]; };
layout(set = 0, binding = 2) writeonly buffer O { vec4 o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    mat4 a = m[i], b = m[(i + 1u) % 64u];
    vec4 x = v[i];
    o[i * 8u + 0u] = a * x;
    o[i * 8u + 1u] = x * a;
    mat4 p = a * b;
    o[i * 8u + 2u] = p[1];
    o[i * 8u + 3u] = transpose(a)[2];
    mat3 c = mat3(a);
    o[i * 8u + 4u] = vec4(determinant(c), determinant(mat2(b)), determinant(a), 0.0);
    mat3x2 op = outerProduct(x.xy, x.yzw);
    o[i * 8u + 5u] = vec4(op[0], op[2]);
    o[i * 8u + 6u] = (a * 2.0)[3] + (c * vec3(1.0, 2.0, 3.0)).xyzx;
    o[i * 8u + 7u] = vec4(mat2x3(a) * vec2(0.5, -1.0), 1.0);
}
