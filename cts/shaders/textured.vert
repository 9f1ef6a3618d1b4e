#version 450
// attributes.vert's vertex input, and texture coordinates projected onto
// the scene from the front: NDC [-1, 1] to [0, 1] in both directions.
layout(location = 0) in vec3 position;
layout(location = 1) in vec4 in_colour;
layout(location = 2) in vec2 offset;
layout(location = 0) out vec3 colour;
layout(location = 1) out vec2 uv;
void main() {
    gl_Position = vec4(position.xy + offset, position.z, 1.0);
    colour = in_colour.rgb;
    uv = position.xy * 0.5 + 0.5;
}
