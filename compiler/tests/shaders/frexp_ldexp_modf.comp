#version 450
// frexp, ldexp and modf.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer O { float o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = a[i];
    int e;
    float m = frexp(x, e);
    float whole;
    float f = modf(x, whole);
    o[i * 5u + 0u] = m;
    o[i * 5u + 1u] = float(e);
    o[i * 5u + 2u] = ldexp(m, e + 1);
    o[i * 5u + 3u] = f;
    o[i * 5u + 4u] = whole;
}
