#version 450
// All 16 KiB of shared memory every Vulkan device has: each invocation fills
// four uvec4s, then reads four others, written by other invocations.
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint seeds[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uvec4 results[]; };
shared uvec4 block[1024];

void main() {
    uint l = gl_LocalInvocationID.x;
    uint seed = seeds[gl_WorkGroupID.x];
    for (uint k = 0u; k < 4u; k++) {
        uint slot = 4u * l + k;
        block[slot] = uvec4(slot, seed, slot ^ seed, slot * seed);
    }
    barrier();
    uint base = 4u * gl_GlobalInvocationID.x;
    for (uint k = 0u; k < 4u; k++)
        results[base + k] = block[(4u * l + k + 513u) & 1023u];
}
