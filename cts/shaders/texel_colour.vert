#version 450
// A position from the vertex buffer; the colour of texel (n, 1) of the
// combined image sampler at set 0, binding 0, for the n-th quad (six
// vertices each).
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) in vec3 position;
layout(location = 0) out vec3 colour;
void main() {
    gl_Position = vec4(position, 1.0);
    colour = texelFetch(tex, ivec2(gl_VertexIndex / 6, 1), 0).rgb;
}
