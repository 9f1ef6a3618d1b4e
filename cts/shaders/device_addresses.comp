#version 450
// Buffers reached through device addresses in push constants
// (GL_EXT_buffer_reference): an array of structs read, an array written, and a
// linked list whose nodes hold the address of the next one, and atomics on a
// counter and a maximum.
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 64) in;
struct Pair { uint a; uint b; };
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Pairs { Pair p[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Words { uint w[]; };
layout(buffer_reference) buffer Node;
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer Node {
    uint value;
    uint pad;
    Node next;
};
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Counters { uint n; uint top; };
layout(push_constant) uniform Addresses { Pairs src; Words dst; Node list; Counters counters; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    Pair q = src.p[i];
    dst.w[i] = q.a * 3u + q.b;
    Node n = list;
    uint sum = 0u;
    for (uint k = 0u; k <= i % 4u; k++) {
        sum += n.value * (i + 1u);
        n = n.next;
    }
    dst.w[i + 256u] = sum;
    atomicAdd(counters.n, 1u);
    atomicMax(counters.top, q.a);
}
