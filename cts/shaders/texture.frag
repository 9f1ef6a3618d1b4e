#version 450
// The combined image sampler of set 0, binding 0, at the interpolated
// texture coordinates.
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 out_colour;
void main() {
    out_colour = texture(tex, uv);
}
