#version 450
#extension GL_EXT_multiview : require
// attributes.vert's vertex input, each view's copy of the scene moved
// right by an eighth of the target per view.
layout(location = 0) in vec3 position;
layout(location = 1) in vec4 in_colour;
layout(location = 2) in vec2 offset;
layout(location = 0) out vec3 colour;
void main() {
    vec2 view_shift = vec2(0.25 * float(gl_ViewIndex), 0.0);
    gl_Position = vec4(position.xy + offset + view_shift, position.z, 1.0);
    colour = in_colour.rgb;
}
