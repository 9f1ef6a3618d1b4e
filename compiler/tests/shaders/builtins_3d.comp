#version 450
// The compute built-ins with a 3D workgroup and a 3D dispatch from base group (1, 0, 2).
layout(local_size_x = 4, local_size_y = 2, local_size_z = 3) in;
layout(set = 0, binding = 0) writeonly buffer O { uvec4 o[]; };
void main() {
    uvec3 wg = gl_WorkGroupID - uvec3(1u, 0u, 2u);
    uint group = (wg.z * gl_NumWorkGroups.y + wg.y) * gl_NumWorkGroups.x + wg.x;
    uint flat_id = group * 24u + gl_LocalInvocationIndex;
    o[flat_id * 3u + 0u] = uvec4(gl_LocalInvocationID, gl_LocalInvocationIndex);
    o[flat_id * 3u + 1u] = uvec4(gl_WorkGroupID, gl_WorkGroupSize.x * 100u + gl_WorkGroupSize.z);
    o[flat_id * 3u + 2u] = uvec4(gl_GlobalInvocationID,
                                 gl_NumWorkGroups.x * 100u + gl_NumWorkGroups.y * 10u + gl_NumWorkGroups.z);
}
