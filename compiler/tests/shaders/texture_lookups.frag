#version 450
// Four lookups into a repeating 8x8-pixel window onto the texture (uv = fract(xy / 8)):
// with a bias of 2 over the implicit level (0 here: a texel a pixel), with gradients of a
// quarter (two texels a pixel: level 1), and gathering level 0's green components, there
// and one texel to the right.
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) out vec4 biased;
layout(location = 1) out vec4 graded;
layout(location = 2) out vec4 gathered;
layout(location = 3) out vec4 gathered_right;
void main() {
    vec2 uv = fract(gl_FragCoord.xy / 8.0);
    biased = texture(tex, uv, 2.0);
    graded = textureGrad(tex, uv, vec2(0.25, 0.0), vec2(0.0, 0.25));
    gathered = textureGather(tex, uv, 1);
    gathered_right = textureGatherOffset(tex, uv, ivec2(1, 0), 1);
}
