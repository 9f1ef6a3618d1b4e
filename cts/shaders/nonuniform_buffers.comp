#version 450
#extension GL_EXT_nonuniform_qualifier : require
// A runtime array of storage buffers indexed with an index that differs
// from one invocation to the next: invocation i reads element i of buffer
// USED[(7 i) % 5] of the array, whose other elements are never written.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) writeonly buffer Out { uint results[]; };
layout(std430, set = 0, binding = 1) readonly buffer In { uint v[]; } inputs[];

const uint USED[5] = uint[](0u, 1u, 3u, 5u, 6u);

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint k = USED[(7u * i) % 5u];
    results[i] = inputs[nonuniformEXT(k)].v[i] + 1000u * k;
}
