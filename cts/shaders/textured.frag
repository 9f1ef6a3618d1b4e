#version 450
// The interpolated colour times the texture (set 0, binding 0), opaque.
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) in vec3 colour;
layout(location = 1) in vec2 uv;
layout(location = 0) out vec4 out_colour;
void main() {
    out_colour = vec4(colour * texture(tex, uv).rgb, 1.0);
}
