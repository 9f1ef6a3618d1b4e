#version 450
// target-env: vulkan1.1
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
// Shuffles to a different invocation per invocation, by xor, up and down,
// and inside a divergent branch (to the branch's first invocation).
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer I { uint v[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = v[i];
    uint id = gl_SubgroupInvocationID;
    uint n = gl_SubgroupSize;
    uint up = subgroupShuffleUp(x, 3u);
    uint down = subgroupShuffleDown(x, 2u);
    o[i * 6u + 0u] = subgroupShuffle(x, (id * 7u + 3u) % n);
    o[i * 6u + 1u] = subgroupShuffleXor(x, 3u);
    o[i * 6u + 2u] = id >= 3u ? up : 0u;
    o[i * 6u + 3u] = id + 2u < n ? down : 0u;
    o[i * 6u + 4u] = subgroupShuffle(x, n - 1u - id);
    uint first = 0u;
    if ((x & 1u) != 0u) {
        first = subgroupShuffle(x, subgroupBallotFindLSB(subgroupBallot(true)));
    }
    o[i * 6u + 5u] = first;
}
