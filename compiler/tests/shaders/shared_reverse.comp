#version 450
// Shared memory and a workgroup barrier: each group reverses its slice.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };
shared uint tile[64];
void main() {
    uint l = gl_LocalInvocationID.x;
    tile[l] = a[gl_GlobalInvocationID.x];
    barrier();
    o[gl_GlobalInvocationID.x] = tile[63u - l] + l;
}
