#version 450
// Non-semantic instructions (SPV_KHR_non_semantic_info, here
// NonSemantic.DebugPrintf): they have no effect on what the shader computes.
#extension GL_EXT_debug_printf : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Input { uint v[]; };
layout(std430, binding = 1) buffer Output { uint o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = v[i] ^ 0x5a5au;
    debugPrintfEXT("invocation %u computed %u", i, x);
    o[i] = x + i;
}
