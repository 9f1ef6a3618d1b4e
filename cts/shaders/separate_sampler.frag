#version 450
// A sampled image (set 0, binding 0) and a sampler (binding 1) combined in
// the shader, at the interpolated texture coordinates.
layout(set = 0, binding = 0) uniform texture2D image;
layout(set = 0, binding = 1) uniform sampler nearest;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 out_colour;
void main() {
    out_colour = texture(sampler2D(image, nearest), uv);
}
