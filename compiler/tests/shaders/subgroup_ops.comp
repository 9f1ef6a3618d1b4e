#version 450
// Subgroup operations over waves of 64: built-ins, elect, votes, ballots and their bit
// operations, broadcasts, reductions and scans, quad swaps, and a divergent branch in
// which only the odd inputs' invocations take part.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_quad : require
layout(local_size_x = 128) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint v[]; };
layout(std430, set = 0, binding = 1) buffer Out { uint o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = v[i];
    uint at = i * 32u;
    bool odd = (x & 1u) != 0u;
    o[at + 0u] = gl_SubgroupSize;
    o[at + 1u] = gl_SubgroupInvocationID;
    o[at + 2u] = gl_SubgroupID;
    o[at + 3u] = gl_NumSubgroups;
    o[at + 4u] = subgroupElect() ? 1u : 0u;
    o[at + 5u] = (subgroupAny(x == 77u) ? 1u : 0u) | (subgroupAll(x < 1000u) ? 2u : 0u)
        | (subgroupAllEqual(x) ? 4u : 0u) | (subgroupAllEqual(gl_SubgroupSize) ? 8u : 0u)
        | (subgroupAny(x == 12345u) ? 16u : 0u) | (subgroupAll(x < 900u) ? 32u : 0u);
    uvec4 b = subgroupBallot(odd);
    o[at + 6u] = b.x;
    o[at + 7u] = b.y;
    o[at + 8u] = b.z | b.w;
    o[at + 9u] = subgroupBallotBitCount(b);
    o[at + 10u] = subgroupBallotInclusiveBitCount(b);
    o[at + 11u] = subgroupBallotExclusiveBitCount(b);
    o[at + 12u] = subgroupBallotFindLSB(b) | (subgroupBallotFindMSB(b) << 8u)
        | (subgroupInverseBallot(b) ? 1u << 16u : 0u)
        | (subgroupBallotBitExtract(b, 5u) ? 1u << 17u : 0u);
    o[at + 13u] = subgroupBroadcastFirst(x);
    o[at + 14u] = subgroupBroadcast(x, 5u);
    o[at + 15u] = subgroupAdd(x);
    o[at + 16u] = subgroupInclusiveMul(x | 1u);
    o[at + 17u] = subgroupExclusiveMax(x);
    o[at + 18u] = subgroupMin(x);
    o[at + 19u] = subgroupExclusiveXor(x) ^ (subgroupOr(x) << 1u);
    o[at + 20u] = floatBitsToUint(subgroupInclusiveAdd(float(x & 255u)));
    o[at + 21u] = uint(subgroupExclusiveMin(int(x) - 500));
    o[at + 22u] = subgroupQuadSwapHorizontal(x) ^ (subgroupQuadSwapDiagonal(x) << 10u);
    o[at + 23u] = subgroupQuadBroadcast(x, 2u) ^ (subgroupQuadSwapVertical(x) << 10u);
    uint d = 0u;
    if (odd) {
        d = subgroupAdd(x) + (subgroupElect() ? 1000000u : 0u)
            + subgroupBallotBitCount(subgroupBallot(true)) * 7u
            + subgroupExclusiveAdd(1u) * 100000u;
    }
    o[at + 24u] = d;
    o[at + 25u] = gl_SubgroupEqMask.x ^ (gl_SubgroupEqMask.y * 3u);
    o[at + 26u] = gl_SubgroupGeMask.x;
    o[at + 27u] = gl_SubgroupGeMask.y;
    o[at + 28u] = gl_SubgroupGtMask.x ^ gl_SubgroupGtMask.y;
    o[at + 29u] = gl_SubgroupLeMask.x;
    o[at + 30u] = gl_SubgroupLtMask.y;
    o[at + 31u] = gl_SubgroupEqMask.z | gl_SubgroupGeMask.w | gl_SubgroupLeMask.z
        | gl_SubgroupLtMask.w | (subgroupAnd(x | 0xffff0000u) & 0xffff0000u);
}
