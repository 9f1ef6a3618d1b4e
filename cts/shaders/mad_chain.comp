#version 450
// A straight line of 4,480 dependent multiply-adds over 14 live words, each step with a
// constant of its own place in the round: low register pressure, and a program longer
// than the 1,023 units of 16 instructions CP_LOAD_STATE6 can preload.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint words[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint results[]; };

#define STEP(x, y, k) x = x * k + y;
#define ROUND \
    STEP(a0, a1, 1025u) STEP(a1, a2, 1027u) STEP(a2, a3, 1029u) STEP(a3, a4, 1031u) \
    STEP(a4, a5, 1033u) STEP(a5, a6, 1035u) STEP(a6, a7, 1037u) STEP(a7, a8, 1039u) \
    STEP(a8, a9, 1041u) STEP(a9, a10, 1043u) STEP(a10, a11, 1045u) STEP(a11, a12, 1047u) \
    STEP(a12, a13, 1049u) STEP(a13, a0, 1051u)
#define EIGHT ROUND ROUND ROUND ROUND ROUND ROUND ROUND ROUND
#define FORTY EIGHT EIGHT EIGHT EIGHT EIGHT

void main() {
    uint b = 14u * gl_GlobalInvocationID.x;
    uint a0 = words[b + 0u], a1 = words[b + 1u], a2 = words[b + 2u], a3 = words[b + 3u];
    uint a4 = words[b + 4u], a5 = words[b + 5u], a6 = words[b + 6u], a7 = words[b + 7u];
    uint a8 = words[b + 8u], a9 = words[b + 9u], a10 = words[b + 10u];
    uint a11 = words[b + 11u], a12 = words[b + 12u], a13 = words[b + 13u];
    FORTY FORTY FORTY FORTY FORTY FORTY FORTY FORTY
    results[b + 0u] = a0; results[b + 1u] = a1; results[b + 2u] = a2; results[b + 3u] = a3;
    results[b + 4u] = a4; results[b + 5u] = a5; results[b + 6u] = a6; results[b + 7u] = a7;
    results[b + 8u] = a8; results[b + 9u] = a9; results[b + 10u] = a10;
    results[b + 11u] = a11; results[b + 12u] = a12; results[b + 13u] = a13;
}
