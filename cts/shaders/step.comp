#version 450
// One step of a chain of dispatches: each output depends on two inputs, one
// of them usually written by another workgroup of the previous dispatch.
layout(local_size_x = 64) in;
layout(push_constant) uniform Step { uint round; };
layout(std430, set = 0, binding = 0) readonly buffer In { uint previous[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint next[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint n = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    next[i] = previous[i] * 3u + previous[(i + 65u) % n] + round;
}
