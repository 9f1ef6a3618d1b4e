#version 450
// Storage texel buffers: typed loads and stores through float, integer and normalised
// formats, every atomic operation on R32 UINT and R32 SINT views, and their sizes.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, rgba32f) uniform imageBuffer vectors;
layout(set = 0, binding = 1, rgba16f) uniform imageBuffer halves;
layout(set = 0, binding = 2, rgba8) uniform writeonly imageBuffer colors;
layout(set = 0, binding = 3, rgba8ui) uniform readonly uimageBuffer bytes;
layout(set = 0, binding = 4, r32ui) uniform uimageBuffer counters;
layout(set = 0, binding = 5, r32i) uniform iimageBuffer signedness;
layout(std430, set = 0, binding = 6) writeonly buffer Out {
    uint olds[128];
    uint unpacked[256];
    uint sizes[6];
};

void main() {
    uint i = gl_GlobalInvocationID.x;
    int t = int(i);
    vec4 v = imageLoad(vectors, t);
    imageStore(vectors, t, v * 2.0 + vec4(float(i), 0.5, -1.0, 0.0));
    vec4 h = imageLoad(halves, t);
    imageStore(halves, t, h.wzyx + vec4(0.25));
    imageStore(colors, t, vec4(float(i) / 255.0, 0.25, 1.5, -0.25));
    uvec4 b = imageLoad(bytes, 255 - t);
    unpacked[i] = b.x + b.y * 2u + b.z * 4u + b.w * 8u;

    imageAtomicAdd(counters, 0, i);
    imageAtomicOr(counters, 1, 1u << (i % 32u));
    imageAtomicXor(counters, 2, i * 0x01010101u);
    imageAtomicMax(counters, 3, i * 3u);
    imageAtomicMin(counters, 4, 1000u - i);
    imageAtomicAnd(counters, 5, ~(1u << (i % 31u)));
    // Each invocation alone on its texel: the old values are known.
    if (i < 64u) {
        olds[i] = imageAtomicExchange(counters, 8 + t, i * 5u);
        olds[64u + i] = imageAtomicCompSwap(counters, 72 + t, i + 100u, i);
    }
    imageAtomicMin(signedness, 0, t - 32);
    imageAtomicMax(signedness, 1, 32 - t);
    imageAtomicAdd(signedness, 2, -t);

    if (i == 0u) {
        sizes[0] = uint(imageSize(vectors));
        sizes[1] = uint(imageSize(halves));
        sizes[2] = uint(imageSize(colors));
        sizes[3] = uint(imageSize(bytes));
        sizes[4] = uint(imageSize(counters));
        sizes[5] = uint(imageSize(signedness));
    }
}
