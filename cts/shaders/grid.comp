#version 450
// Each invocation stores, at its place in the grid of one dispatch, a tag
// and the workgroup counts it was dispatched with.
layout(local_size_x = 8, local_size_y = 2) in;
layout(push_constant) uniform Place { uint base; uint tag; };
layout(std430, set = 0, binding = 0) writeonly buffer Out { uint cells[]; };

void main() {
    uvec3 g = gl_GlobalInvocationID;
    uvec3 size = gl_NumWorkGroups * gl_WorkGroupSize;
    uint index = g.x + size.x * (g.y + size.y * g.z);
    uvec3 n = gl_NumWorkGroups;
    cells[base + index] = tag | n.x << 8 | n.y << 14 | n.z << 20;
}
