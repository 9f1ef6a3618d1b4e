#version 450
// Signed 32-bit arithmetic, including division of negatives and the GLSL built-ins.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { int a[]; };
layout(set = 0, binding = 1) readonly buffer B { int b[]; };
layout(set = 0, binding = 2) writeonly buffer O { int o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int x = a[i], y = b[i];
    o[i * 10u + 0u] = x + y;
    o[i * 10u + 1u] = x - y;
    o[i * 10u + 2u] = x * y;
    o[i * 10u + 3u] = x / y;
    o[i * 10u + 4u] = abs(x) % abs(y); // % of negatives is undefined in GLSL
    o[i * 10u + 5u] = -x;
    o[i * 10u + 6u] = min(x, y);
    o[i * 10u + 7u] = max(x, y);
    o[i * 10u + 8u] = abs(x) + sign(y);
    o[i * 10u + 9u] = clamp(x, -100, 100);
}
