#version 450
// Computes indirect dispatch arguments from data on the device.
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint seed; };
layout(std430, set = 0, binding = 1) writeonly buffer Args { uint pad[3]; uvec3 groups; };

void main() {
    groups = uvec3(seed % 5u + 1u, seed / 5u % 3u + 1u, seed / 15u % 2u + 1u);
}
