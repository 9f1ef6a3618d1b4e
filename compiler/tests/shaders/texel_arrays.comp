#version 450
// Arrays of texel buffers: elements chosen by constants, by a push constant and by the
// work group, and a descriptor beyond the sixteen an instruction can name.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform usamplerBuffer tables[18];
layout(set = 0, binding = 1, r32ui) uniform uimageBuffer results[2];
layout(push_constant) uniform Params { uint which; } pc;

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint group = gl_WorkGroupID.x;
    uint a = texelFetch(tables[group % 3u], int(i)).x;
    uint b = texelFetch(tables[17], int(i)).x;
    uint c = texelFetch(tables[pc.which], int(i % 16u)).x;
    imageStore(results[1], int(i), uvec4(a + b * 1000u + c * 1000000u));
    imageStore(results[0], int(i), uvec4(uint(textureSize(tables[16])) + group));
}
