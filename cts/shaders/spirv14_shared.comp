#version 450
// target-env: spirv1.4
// A SPIR-V 1.4 module (its entry point lists every global it uses, shared
// memory and buffers included): a reversal through shared memory.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Input { uint v[]; };
layout(std430, binding = 1) buffer Output { uint o[]; };
shared uint tmp[64];
void main() {
    uint i = gl_GlobalInvocationID.x;
    tmp[gl_LocalInvocationID.x] = v[i] * 3u;
    barrier();
    o[i] = tmp[63u - gl_LocalInvocationID.x] + i;
}
