#version 450
// Carry, borrow and wide multiplication.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i], y = a[(i + 1u) % 256u];
    uint carry, borrow, hi, lo;
    o[i * 8u + 0u] = uaddCarry(x, y, carry);
    o[i * 8u + 1u] = carry;
    o[i * 8u + 2u] = usubBorrow(x, y, borrow);
    o[i * 8u + 3u] = borrow;
    umulExtended(x, y, hi, lo);
    o[i * 8u + 4u] = hi;
    o[i * 8u + 5u] = lo;
    int shi, slo;
    imulExtended(int(x), int(y), shi, slo);
    o[i * 8u + 6u] = uint(shi);
    o[i * 8u + 7u] = uint(slo);
}
