#version 450
// A work group of 672 (a non-power-of-two size, as VkFFT's) holding 48 words per
// invocation across a barrier: every wave must be resident at once, at whatever
// register count that leaves.
layout(local_size_x = 672) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint words[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint results[]; };
shared uint sums[672];

#define LOAD4(n) uint v##n##0 = words[b + 4u * uint(n - 1)], \
    v##n##1 = words[b + 4u * uint(n - 1) + 1u], v##n##2 = words[b + 4u * uint(n - 1) + 2u], \
    v##n##3 = words[b + 4u * uint(n - 1) + 3u];
#define FOLD4(n) acc = acc * 5u + v##n##3; acc = acc * 5u + v##n##2; \
    acc = acc * 5u + v##n##1; acc = acc * 5u + v##n##0;
#define SUM4(n) sum += v##n##0 + v##n##1 + v##n##2 + v##n##3;

void main() {
    uint i = gl_LocalInvocationID.x;
    uint b = 48u * gl_GlobalInvocationID.x;
    LOAD4(1) LOAD4(2) LOAD4(3) LOAD4(4) LOAD4(5) LOAD4(6)
    LOAD4(7) LOAD4(8) LOAD4(9) LOAD4(10) LOAD4(11) LOAD4(12)
    uint sum = 0u;
    SUM4(1) SUM4(2) SUM4(3) SUM4(4) SUM4(5) SUM4(6)
    SUM4(7) SUM4(8) SUM4(9) SUM4(10) SUM4(11) SUM4(12)
    sums[i] = sum;
    barrier();
    uint acc = sums[(i + 1u) % 672u];
    FOLD4(12) FOLD4(11) FOLD4(10) FOLD4(9) FOLD4(8) FOLD4(7)
    FOLD4(6) FOLD4(5) FOLD4(4) FOLD4(3) FOLD4(2) FOLD4(1)
    results[gl_GlobalInvocationID.x] = acc;
}
