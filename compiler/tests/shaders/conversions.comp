#version 450
// Conversions between int, uint, float and bool.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = a[i];                 // in (-1000, 1000)
    int n = int(x);
    o[i * 6u + 0u] = uint(n);
    o[i * 6u + 1u] = uint(abs(x));
    o[i * 6u + 2u] = floatBitsToUint(float(n) * 0.5);
    o[i * 6u + 3u] = floatBitsToUint(float(uint(abs(x))));
    o[i * 6u + 4u] = uint(x > 0.0) + uint(n != 0) * 2u;
    o[i * 6u + 5u] = uint(bool(i & 1u)) + uint(float(i) > x) * 4u;
}
