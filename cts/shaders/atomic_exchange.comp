#version 450
// Compare-and-swap elections: in each slot exactly one invocation replaces
// the 0 it expects; exchange passes a token along so that every value
// written is returned exactly once.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Slots { uint token; uint slots[16]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uvec2 results[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint won = atomicCompSwap(slots[i % 16u], 0u, i + 1u) == 0u ? 1u : 0u;
    uint previous = atomicExchange(token, i + 1u);
    results[i] = uvec2(won, previous);
}
