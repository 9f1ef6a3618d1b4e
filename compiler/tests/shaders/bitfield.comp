#version 450
// Bit-field built-ins.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    int off = int(i % 20u), bits = int(i % 13u);
    o[i * 7u + 0u] = bitfieldExtract(x, off, bits);
    o[i * 7u + 1u] = uint(bitfieldExtract(int(x), off, bits));
    o[i * 7u + 2u] = bitfieldInsert(x, ~x, off, bits);
    o[i * 7u + 3u] = uint(bitCount(x));
    o[i * 7u + 4u] = uint(findLSB(x >> (i % 32u)));
    o[i * 7u + 5u] = uint(findMSB(x >> (i % 32u))) + uint(findMSB(int(x) >> 3)) * 256u;
    o[i * 7u + 6u] = bitfieldReverse(x);
}
