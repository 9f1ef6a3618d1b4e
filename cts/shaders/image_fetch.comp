#version 450
// Sampled images read by texel fetches: a combined image sampler array
// (RGBA8_UINT and R32_UINT, immutable samplers), a separate sampled image
// (R32_SFLOAT) joined to a sampler in the shader, and a size query.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform usampler2D pair[2];
layout(set = 0, binding = 1) uniform texture2D floats;
layout(set = 0, binding = 2) uniform sampler nearest;
layout(std430, set = 0, binding = 3) writeonly buffer Out { uvec4 results[]; };

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    ivec2 size = textureSize(pair[1], 0);
    uvec4 a = texelFetch(pair[0], p, 0);
    uint b = texelFetch(pair[1], ivec2(size.x - 1 - p.x, p.y), 0).x;
    float f = texelFetch(sampler2D(floats, nearest), p, 0).x;
    results[p.y * size.x + p.x] = uvec4(a.x | a.y << 8 | a.z << 16 | a.w << 24, b,
                                        floatBitsToUint(f * 2.0), uint(size.x) << 16 | uint(size.y));
}
