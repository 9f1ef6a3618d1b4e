#version 450
// Conversions between float and 32-bit integers: float to integer
// truncates toward zero; integer to float rounds to nearest even.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uvec4 operands[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uvec4 results[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    float f = uintBitsToFloat(operands[i].x);
    float g = uintBitsToFloat(operands[i].y);
    int n = int(operands[i].z);
    uint u = operands[i].w;
    results[2u * i] = uvec4(uint(int(f)), uint(abs(g)), floatBitsToUint(float(n)), floatBitsToUint(float(u)));
    results[2u * i + 1u] = uvec4(floatBitsToUint(float(n >> 8)), uint(sign(f) + 1.0), floatBitsToUint(fract(g)), uint(f < g));
}
