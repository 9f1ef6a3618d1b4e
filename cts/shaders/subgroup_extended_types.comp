#version 450
// target-env: vulkan1.1
// Subgroup operations on 16- and 64-bit values (shaderSubgroupExtendedTypes): 16-bit
// integer sums and maxima, a 16-bit broadcast, a 16-bit float scan, 64-bit sums,
// scans, minima and a 64-bit broadcast.
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_EXT_shader_subgroup_extended_types_int16 : require
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
#extension GL_EXT_shader_subgroup_extended_types_float16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(local_size_x = 128) in;
layout(std430, binding = 0) readonly buffer Input { uint v[]; };
layout(std430, binding = 1) buffer Output { uint o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = v[i];
    uint at = i * 8u;
    o[at + 0u] = uint(subgroupBroadcast(uint64_t(x) << 20, 1u) >> 16);
    int16_t s = int16_t(x) - int16_t(200);
    o[at + 1u] = uint(int(subgroupAdd(s)));
    o[at + 2u] = uint(subgroupMax(uint16_t(x * 300u)));
    o[at + 3u] = uint(subgroupBroadcast(uint16_t(x), 2u));
    o[at + 4u] = uint(subgroupInclusiveAdd(float16_t(x & 15u)));
    o[at + 5u] = uint(subgroupAdd(int64_t(x) << 33) >> 32);
    o[at + 6u] = uint(subgroupExclusiveAdd(uint64_t(x) * 0x100000001ul) >> 20);
    o[at + 7u] = uint(subgroupMin(int64_t(x) - 1000l) >> 1);
}
