#version 310 es
#extension GL_EXT_device_group : require
// gl_DeviceIndex, shaped like dEQP's compute.pipeline.device_group.device_index: every
// invocation fills its share of a fixed-size array with a uniform offset plus the one
// its device's index picks (on a device group of one physical device, index 0).
layout(local_size_x = 3, local_size_y = 2, local_size_z = 1) in;
layout(binding = 0) buffer Values { uint values[96]; } sb;
layout(binding = 1) readonly uniform Offsets { uint base[33]; } ubo;
void main(void) {
    uvec3 size = gl_NumWorkGroups * gl_WorkGroupSize;
    uint per = uint(sb.values.length()) / (size.x * size.y * size.z);
    uint index = size.x * size.y * gl_GlobalInvocationID.z + size.x * gl_GlobalInvocationID.y
        + gl_GlobalInvocationID.x;
    for (uint k = 0u; k < per; k++)
        sb.values[per * index + k] = ubo.base[0] + ubo.base[gl_DeviceIndex + 1];
}
