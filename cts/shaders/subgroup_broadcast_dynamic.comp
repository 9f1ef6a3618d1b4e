#version 450
// target-env: vulkan1.2
// subgroupBroadcast with an id that is not a constant but is the same across the
// subgroup (SPIR-V 1.5, subgroupBroadcastDynamicId): a lane the subgroup's first
// value picks, and one a loop counter gives.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
layout(local_size_x = 128) in;
layout(std430, binding = 0) readonly buffer Input { uint v[]; };
layout(std430, binding = 1) buffer Output { uint o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = v[i];
    uint lane = subgroupBroadcastFirst(x) % gl_SubgroupSize;
    o[2u * i] = subgroupBroadcast(x, lane);
    uint sum = 0u;
    for (uint k = 0u; k < 4u; k++) {
        sum = sum * 31u + subgroupBroadcast(x, (k * 3u) % gl_SubgroupSize);
    }
    o[2u * i + 1u] = sum;
}
