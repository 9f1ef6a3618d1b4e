#version 450
// Storage images: an R32_UINT image read, then incremented with an atomic
// that returns what was read, and its size asked; an RGBA8_UINT image
// written with the bytes of what was read.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, r32ui) uniform uimage2D counters;
layout(set = 0, binding = 1, rgba8ui) uniform writeonly uimage2D bytes;
layout(std430, set = 0, binding = 2) writeonly buffer Out { uvec4 results[]; };

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    uint v = imageLoad(counters, p).x;
    imageStore(bytes, p, uvec4(v & 0xffu, v >> 8 & 0xffu, v >> 16 & 0xffu, v >> 24));
    uint old = imageAtomicAdd(counters, p, 5u);
    ivec2 size = imageSize(counters);
    results[p.y * size.x + p.x] = uvec4(v, old, uvec2(size));
}
