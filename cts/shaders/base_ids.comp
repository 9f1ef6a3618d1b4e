#version 450
// Under vkCmdDispatchBase, the workgroup and global ids include the base
// and gl_NumWorkGroups is the count dispatched.
layout(local_size_x = 4) in;
layout(push_constant) uniform Base { uvec2 base; };
layout(std430, set = 0, binding = 0) writeonly buffer Out { uvec4 results[]; };

void main() {
    uvec2 group = gl_WorkGroupID.xy - base;
    uint slot = (group.y * gl_NumWorkGroups.x + group.x) * 4u + gl_LocalInvocationID.x;
    results[slot] = uvec4(gl_WorkGroupID.xy, gl_GlobalInvocationID.x, gl_NumWorkGroups.x << 8 | gl_NumWorkGroups.y);
}
