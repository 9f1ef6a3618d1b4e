#version 450
// target-env: vulkan1.1
// Subgroup operations, each invocation writing what it saw: the built-ins, elect,
// votes, a ballot and its counts, broadcasts, reductions and scans, quad swaps, and a
// reduction inside a branch only the odd inputs take.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_quad : require
layout(local_size_x = 128) in;
layout(std430, binding = 0) readonly buffer Input { uint v[]; };
layout(std430, binding = 1) buffer Output { uint o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = v[i];
    bool odd = (x & 1u) != 0u;
    uint at = i * 24u;
    o[at + 0u] = gl_SubgroupSize;
    o[at + 1u] = gl_SubgroupInvocationID;
    o[at + 2u] = gl_SubgroupID;
    o[at + 3u] = gl_NumSubgroups;
    o[at + 4u] = (subgroupElect() ? 1u : 0u) | (subgroupAny(x == 7u) ? 2u : 0u)
        | (subgroupAll(x < 500u) ? 4u : 0u) | (subgroupAllEqual(x) ? 8u : 0u);
    uvec4 b = subgroupBallot(odd);
    o[at + 5u] = b.x;
    o[at + 6u] = b.y;
    o[at + 7u] = b.z;
    o[at + 8u] = b.w;
    o[at + 9u] = subgroupBallotBitCount(b) | (subgroupBallotExclusiveBitCount(b) << 8u)
        | (subgroupBallotFindLSB(b) << 16u);
    o[at + 10u] = subgroupBroadcastFirst(x);
    o[at + 11u] = subgroupBroadcast(x, 3u);
    o[at + 12u] = subgroupAdd(x);
    o[at + 13u] = subgroupInclusiveMul(x | 1u);
    o[at + 14u] = subgroupExclusiveMax(x);
    o[at + 15u] = subgroupMin(x);
    o[at + 16u] = subgroupInclusiveXor(x);
    o[at + 17u] = subgroupOr(x);
    o[at + 18u] = floatBitsToUint(subgroupExclusiveAdd(float(x & 63u)));
    o[at + 19u] = uint(subgroupMax(int(x) - 300));
    o[at + 20u] = subgroupQuadSwapHorizontal(x);
    o[at + 21u] = subgroupQuadSwapDiagonal(x);
    o[at + 22u] = subgroupQuadBroadcast(x, 1u);
    uint d = 0u;
    if (odd) {
        d = subgroupAdd(x) + subgroupInclusiveAdd(1u) * 100000u;
    }
    o[at + 23u] = d;
}
