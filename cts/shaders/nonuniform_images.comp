#version 450
#extension GL_EXT_nonuniform_qualifier : require
// Runtime arrays of every image and texel buffer kind, each indexed with
// an index that differs from one invocation to the next: invocation i
// reads texel i of element i % 3 of each array.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) writeonly buffer Out { uint results[]; };
layout(set = 0, binding = 1) uniform usampler2D textures[];
layout(set = 0, binding = 2) uniform usamplerBuffer uniform_texels[];
layout(set = 0, binding = 3, r32ui) readonly uniform uimageBuffer storage_texels[];
layout(set = 0, binding = 4, r32ui) readonly uniform uimage2D storage_images[];

void main() {
    uint i = gl_LocalInvocationIndex;
    uint k = i % 3u;
    ivec2 at = ivec2(i % 8u, i / 8u);
    results[i] = texelFetch(textures[nonuniformEXT(k)], at, 0).x
        + texelFetch(uniform_texels[nonuniformEXT(k)], int(i)).x
        + imageLoad(storage_texels[nonuniformEXT(k)], int(i)).x
        + imageLoad(storage_images[nonuniformEXT(k)], at).x;
}
