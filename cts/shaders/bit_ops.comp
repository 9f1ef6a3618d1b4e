#version 450
// Bit-field extraction and insertion, counting, finding and reversing bits.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uvec4 operands[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint results[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint a = operands[i].x;
    uint b = operands[i].y;
    int offset = int(operands[i].z);
    int bits = int(operands[i].w);
    uint o = 8u * i;
    results[o + 0u] = bitfieldExtract(a, offset, bits);
    results[o + 1u] = uint(bitfieldExtract(int(a), offset, bits));
    results[o + 2u] = bitfieldInsert(a, b, offset, bits);
    results[o + 3u] = uint(bitCount(a));
    results[o + 4u] = uint(findLSB(a));
    results[o + 5u] = uint(findMSB(a));
    results[o + 6u] = uint(findMSB(int(a)));
    results[o + 7u] = bitfieldReverse(a);
}
