#version 450
// Blocks in the scalar layout (GL_EXT_scalar_block_layout): vec3 arrays with a
// 12-byte stride, a float right after a vec3, structs of 20 bytes, a vec2 at an
// offset that is not a multiple of 8.
#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 64) in;
struct Item { vec3 p; float w; uint id; };
layout(scalar, binding = 0) readonly buffer Input { float head; vec3 v[64]; Item items[64]; };
layout(scalar, binding = 1) buffer Output { uint tag; vec3 sums[64]; vec2 pairs[64]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    Item it = items[63u - i];
    sums[i] = v[i] * it.w + it.p + vec3(head);
    pairs[i] = vec2(float(it.id), v[i].y + it.p.z);
    if (i == 0u) {
        tag = 0xfeedu;
    }
}
