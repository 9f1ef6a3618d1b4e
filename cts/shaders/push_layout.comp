#version 450
// A push constant block of every common member type (std430 offsets); the
// shader copies each member to the output as raw 32-bit words.
layout(local_size_x = 1) in;
layout(push_constant) uniform Block {
    uint a;        // 0
    int b;         // 4
    float c;       // 8
    vec2 d;        // 16
    vec4 e;        // 32
    uvec3 f;       // 48
    uint g;        // 60
    mat2 m;        // 64
    uint list[4];  // 80
    ivec2 h;       // 96
    float last;    // 104
} pc;
layout(std430, set = 0, binding = 0) writeonly buffer Out { uint results[]; };

void main() {
    results[0] = pc.a;
    results[1] = uint(pc.b);
    results[2] = floatBitsToUint(pc.c);
    results[3] = floatBitsToUint(pc.d.x);
    results[4] = floatBitsToUint(pc.d.y);
    for (int k = 0; k < 4; k++)
        results[5 + k] = floatBitsToUint(pc.e[k]);
    results[9] = pc.f.x;
    results[10] = pc.f.y;
    results[11] = pc.f.z;
    results[12] = pc.g;
    results[13] = floatBitsToUint(pc.m[0][0]);
    results[14] = floatBitsToUint(pc.m[0][1]);
    results[15] = floatBitsToUint(pc.m[1][0]);
    results[16] = floatBitsToUint(pc.m[1][1]);
    for (int k = 0; k < 4; k++)
        results[17 + k] = pc.list[k];
    results[21] = uint(pc.h.x);
    results[22] = uint(pc.h.y);
    results[23] = floatBitsToUint(pc.last);
}
