#version 450
// Compare-exchange on shared memory and on a storage buffer, with a comparator that
// differs from the value stored, so a swap of the two operands changes every result.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer B { uint b[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };
shared uint s[64];
void main() {
    uint l = gl_LocalInvocationID.x;
    uint i = gl_GlobalInvocationID.x;
    s[l] = l * 3u;
    barrier();
    uint hit = atomicCompSwap(s[l], l * 3u, l + 1000u);
    uint miss = atomicCompSwap(s[l], 7u, 9u);
    uint old = b[i];
    uint hit_b = atomicCompSwap(b[i], old, i ^ 0x5a5a5a5au);
    uint miss_b = atomicCompSwap(b[i], old, 1u);
    barrier();
    o[i * 4u] = hit;
    o[i * 4u + 1u] = miss;
    o[i * 4u + 2u] = s[l];
    o[i * 4u + 3u] = hit_b ^ miss_b;
}
