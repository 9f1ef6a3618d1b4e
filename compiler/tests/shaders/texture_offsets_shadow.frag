#version 450
// In a repeating 8x8-pixel window onto the textures (uv = fract(xy / 8)): level 0 of
// the colour texture one texel right and one up, and a shadow lookup of reference 0.5.
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) uniform sampler2DShadow depth;
layout(location = 0) out vec4 offset;
layout(location = 1) out vec4 shadow;
void main() {
    vec2 uv = fract(gl_FragCoord.xy / 8.0);
    offset = textureLodOffset(tex, uv, 0.0, ivec2(1, -1));
    shadow = vec4(texture(depth, vec3(uv, 0.5)));
}
