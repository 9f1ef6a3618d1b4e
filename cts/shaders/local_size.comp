#version 450
// A workgroup size set by specialization constants; each invocation stores
// its global index and the size it sees.
layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z = 1) in;
layout(std430, set = 0, binding = 0) writeonly buffer Out { uvec4 results[]; };

void main() {
    uint width = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    uint i = gl_GlobalInvocationID.x + width * gl_GlobalInvocationID.y;
    results[i] = uvec4(gl_GlobalInvocationID.xy, gl_WorkGroupSize.xy);
}
