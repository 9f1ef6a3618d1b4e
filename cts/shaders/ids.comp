#version 450
// The invocation's identifiers in a 3-D dispatch of 3-D workgroups.
layout(local_size_x = 4, local_size_y = 2, local_size_z = 3) in;
layout(std430, set = 0, binding = 0) writeonly buffer Out { uvec4 results[]; };

void main() {
    uvec3 g = gl_GlobalInvocationID;
    uvec3 size = gl_NumWorkGroups * gl_WorkGroupSize;
    uint slot = 4u * (g.x + size.x * (g.y + size.y * g.z));
    results[slot + 0u] = uvec4(gl_GlobalInvocationID, gl_LocalInvocationIndex);
    results[slot + 1u] = uvec4(gl_LocalInvocationID, 0u);
    results[slot + 2u] = uvec4(gl_WorkGroupID, 0u);
    results[slot + 3u] = uvec4(gl_NumWorkGroups, 0u);
}
