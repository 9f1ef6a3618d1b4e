#version 450
#extension GL_EXT_null_initializer : require
// target-env: vulkan1.2
// Workgroup variables with null initializers
// (shaderZeroInitializeWorkgroupMemory): histograms counted from zero in
// shared memory, and a pair of which only one half is ever written.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint v[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint o[]; };
shared uint counts[300] = {};
shared uvec2 pair = {};
void main() {
    uint l = gl_LocalInvocationIndex;
    uint value = v[gl_GlobalInvocationID.x];
    atomicAdd(counts[value % 300u], 1u);
    atomicAdd(pair.x, value);
    barrier();
    uint base = gl_WorkGroupID.x * 302u;
    for (uint k = l; k < 300u; k += 64u) {
        o[base + k] = counts[k];
    }
    if (l == 0u) {
        o[base + 300u] = pair.x;
        o[base + 301u] = pair.y;
    }
}
