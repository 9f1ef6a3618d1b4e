#version 450
// Out-of-bounds accesses of a 16 x 8 R32_UINT image, as a storage image and
// fetched as a sampled one: past each edge, negative, and far away. Loads
// and fetches give zero colour components (alpha 0 or 1); stores and
// atomics change nothing.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, r32ui) uniform uimage2D img;
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint results[]; };
layout(set = 0, binding = 2) uniform usampler2D sampled;

void main() {
    int i = int(gl_GlobalInvocationID.x);
    ivec2 outside;
    switch (i % 4) {
    case 0: outside = ivec2(16 + i, i % 8); break;
    case 1: outside = ivec2(-1 - i, i % 8); break;
    case 2: outside = ivec2(i % 16, 8 + i); break;
    default: outside = ivec2(-100 * i, 1 << 20); break;
    }
    uvec4 v = imageLoad(img, outside);
    results[i] = v.x | v.y | v.z;
    results[64 + i] = (v.w == 0u || v.w == 1u) ? 1u : 0u;
    uvec4 f = texelFetch(sampled, outside, 0);
    results[128 + i] = f.x | f.y | f.z;
    results[192 + i] = (f.w == 0u || f.w == 1u) ? 1u : 0u;
    imageStore(img, outside, uvec4(0xdeadu));
    imageAtomicAdd(img, outside, 5u);
}
