#version 450
// Atomics on a storage buffer: every kind, with results that do not depend on ordering.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer C {
    uint count; int smallest; uint largest; uint ands; uint ors; uint xors; uint swapped; uint claimed;
    uint slots[];
};
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = i * 2654435761u;
    atomicAdd(count, i);
    atomicMin(smallest, int(v));
    atomicMax(largest, v >> 4);
    atomicAnd(ands, ~(1u << (i & 31u)) | 0x80000000u);
    atomicOr(ors, 1u << (i % 29u));
    atomicXor(xors, v);
    atomicExchange(slots[i], i + 1u);
    // Exactly one invocation wins the compare-exchange of 0 -> 1.
    if (atomicCompSwap(claimed, 0u, 1u) == 0u) atomicAdd(swapped, 1u);
}
