#version 450
// The interpolated colour at alpha 0.5, for blending.
layout(location = 0) in vec3 colour;
layout(location = 0) out vec4 out_colour;
void main() {
    out_colour = vec4(colour, 0.5);
}
