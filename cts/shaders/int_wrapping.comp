#version 450
// 32-bit integer add, subtract and multiply wrap modulo 2^32.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uvec2 operands[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uvec4 results[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint a = operands[i].x;
    uint b = operands[i].y;
    results[i] = uvec4(a + b, a - b, a * b, uint(int(a) * int(b)));
}
