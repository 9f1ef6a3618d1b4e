#version 450
// Shifts by 0..31 (logical for uint, arithmetic for int) and bitwise logic.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uvec2 operands[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint results[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint a = operands[i].x;
    uint b = operands[i].y;
    uint s = b & 31u;
    uint o = 8u * i;
    results[o + 0u] = a << s;
    results[o + 1u] = a >> s;
    results[o + 2u] = uint(int(a) >> int(s));
    results[o + 3u] = a & b;
    results[o + 4u] = a | b;
    results[o + 5u] = a ^ b;
    results[o + 6u] = ~a;
    results[o + 7u] = (a << 7u) | (a >> 25u);
}
