#version 450
// A position per vertex (xy) and depth, and a colour and an offset per
// vertex or per instance, from vertex buffers.
layout(location = 0) in vec3 position;
layout(location = 1) in vec4 in_colour;
layout(location = 2) in vec2 offset;
layout(location = 0) out vec3 colour;
void main() {
    gl_Position = vec4(position.xy + offset, position.z, 1.0);
    colour = in_colour.rgb;
}
