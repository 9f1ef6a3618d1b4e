#version 450
// A position scaled and moved by a uniform buffer (set 0, binding 0),
// which also gives the colour every vertex passes on.
layout(std140, set = 0, binding = 0) uniform Transform {
    vec4 scale_offset;
    vec4 colour;
} u;
layout(location = 0) in vec3 position;
layout(location = 0) out vec3 colour;
void main() {
    gl_Position = vec4(position.xy * u.scale_offset.xy + u.scale_offset.zw, position.z, 1.0);
    colour = u.colour.rgb;
}
