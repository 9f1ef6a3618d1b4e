#version 450
// Uniform texel buffers through the texture unit: a normalised, a signed 16-bit, an
// unsigned 32-bit and a half-float view, each read at its own index, with the components
// the formats lack, and their sizes.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform samplerBuffer unorm8;   // RGBA8 UNORM
layout(set = 0, binding = 1) uniform isamplerBuffer sint16;  // RG16 SINT
layout(set = 0, binding = 2) uniform usamplerBuffer uint32;  // R32 UINT
layout(set = 0, binding = 3) uniform samplerBuffer half2;    // RG16 SFLOAT
layout(std430, set = 0, binding = 4) writeonly buffer Out {
    vec4 colors[256];
    ivec4 pairs[256];
    uvec2 words[256];
    vec2 halves[256];
    uint sizes[4];
};

void main() {
    uint i = gl_GlobalInvocationID.x;
    colors[i] = texelFetch(unorm8, int(i));
    pairs[i] = texelFetch(sint16, int(i * 7u % 300u));
    uvec4 w = texelFetch(uint32, int(255u - i));
    words[i] = uvec2(w.x, w.y + w.w * 16u);
    halves[i] = texelFetch(half2, int(i)).yx;
    if (i == 0u) {
        sizes[0] = uint(textureSize(unorm8));
        sizes[1] = uint(textureSize(sint16));
        sizes[2] = uint(textureSize(uint32));
        sizes[3] = uint(textureSize(half2));
    }
}
