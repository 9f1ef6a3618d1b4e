#version 450
#extension GL_EXT_multiview : require
// The interpolated red and green; blue says which view it is.
layout(location = 0) in vec3 colour;
layout(location = 0) out vec4 out_colour;
void main() {
    out_colour = vec4(colour.rg, 0.25 * float(gl_ViewIndex + 1), 1.0);
}
