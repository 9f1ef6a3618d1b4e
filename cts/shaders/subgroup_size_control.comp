#version 450
// target-env: vulkan1.1
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
// What depends on the subgroup size (VK_EXT_subgroup_size_control): the built-ins,
// a reduction and a scan, and a ballot's words.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer I { uint v[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = v[i];
    uvec4 b = subgroupBallot((x & 1u) != 0u);
    o[i * 8u + 0u] = gl_SubgroupSize;
    o[i * 8u + 1u] = gl_SubgroupInvocationID;
    o[i * 8u + 2u] = gl_SubgroupID;
    o[i * 8u + 3u] = gl_NumSubgroups;
    o[i * 8u + 4u] = subgroupAdd(x);
    o[i * 8u + 5u] = subgroupExclusiveMax(x);
    o[i * 8u + 6u] = subgroupBallotBitCount(b);
    o[i * 8u + 7u] = b.x ^ b.y ^ b.z ^ b.w;
}
