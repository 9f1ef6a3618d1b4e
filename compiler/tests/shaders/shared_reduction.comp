#version 450
// A tree reduction in shared memory with a barrier in a loop; one sum per workgroup.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };
shared uint partial[128];
void main() {
    uint l = gl_LocalInvocationID.x;
    partial[l] = a[gl_GlobalInvocationID.x];
    barrier();
    for (uint stride = 64u; stride > 0u; stride >>= 1) {
        if (l < stride) partial[l] += partial[l + stride];
        barrier();
    }
    if (l == 0u) o[gl_WorkGroupID.x] = partial[0];
}
