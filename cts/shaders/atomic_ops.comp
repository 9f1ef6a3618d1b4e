#version 450
// Many invocations apply unsigned min and max, and, or, xor and add to the
// same few buffer words.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint values[]; };
layout(std430, set = 0, binding = 1) buffer Slots { uint slots[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = values[i];
    uint o = 8u * (i % 4u);
    atomicMin(slots[o + 0u], v);
    atomicMax(slots[o + 1u], v);
    atomicMax(slots[o + 2u], v & 0xffffu);
    atomicAnd(slots[o + 3u], v | 0x00ff00ffu);
    atomicOr(slots[o + 4u], 1u << (v % 32u));
    atomicXor(slots[o + 5u], v);
    atomicAdd(slots[o + 6u], v);
    atomicAdd(slots[o + 7u], 1u);
}
