#version 450
// An array of storage buffers, selected per invocation.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint v[]; } inputs[3];
layout(set = 1, binding = 2) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    o[i] = inputs[i % 3u].v[i] + inputs[2].v[0];
}
