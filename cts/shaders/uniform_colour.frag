#version 450
// The colour of a uniform buffer (set 0, binding 0).
layout(std140, set = 0, binding = 0) uniform Colour {
    vec4 colour;
} u;
layout(location = 0) out vec4 out_colour;
void main() {
    out_colour = u.colour;
}
