#version 450
#extension GL_EXT_device_group : require
// gl_DeviceIndex: the index of the device within its device group.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint offsets[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint results[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    results[2u * i] = uint(gl_DeviceIndex);
    results[2u * i + 1u] = offsets[0] + offsets[gl_DeviceIndex + 1] + i;
}
