#version 450
// Uniform texel buffers of R32_SFLOAT and R8G8B8A8_UINT, a storage texel
// buffer of R32_UINT written with imageStore and imageAtomicAdd.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform samplerBuffer floats;
layout(set = 0, binding = 1) uniform usamplerBuffer bytes;
layout(set = 0, binding = 2, r32ui) uniform uimageBuffer words;
layout(std430, set = 0, binding = 3) writeonly buffer Out { uvec4 results[]; };

void main() {
    int i = int(gl_GlobalInvocationID.x);
    float f = texelFetch(floats, i).x;
    uvec4 b = texelFetch(bytes, i);
    imageAtomicAdd(words, i % 8, 1u);
    imageStore(words, 8 + i, uvec4(uint(i) * 3u + 1u));
    results[i] = uvec4(floatBitsToUint(f * 4.0), b.x | b.y << 8 | b.z << 16 | b.w << 24,
                       uint(textureSize(floats)), uint(imageSize(words)));
}
