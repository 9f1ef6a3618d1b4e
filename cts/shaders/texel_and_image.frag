#version 450
// A uniform texel buffer (set 0, binding 0) of sixteen packed RGBA8
// colours, one for each 16x16 block of the 64x64 target, gives the
// fragment's colour; each fragment stores that colour's word, mixed with
// its position, into a storage image (binding 1) at its pixel.
layout(set = 0, binding = 0) uniform usamplerBuffer palette;
layout(set = 0, binding = 1, r32ui) uniform writeonly uimage2D marks;
layout(location = 0) out vec4 out_colour;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    uint c = texelFetch(palette, p.x / 16 + 4 * (p.y / 16)).x;
    imageStore(marks, p, uvec4(c ^ uint(p.x * 64 + p.y)));
    out_colour = unpackUnorm4x8(c);
}
