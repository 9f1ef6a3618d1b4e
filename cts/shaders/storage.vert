#version 450
// A position from the vertex buffer; each vertex writes its index's word
// of a storage buffer (set 0, binding 0) from its position, which stays
// right however often the implementation runs the vertex shader.
layout(std430, set = 0, binding = 0) writeonly buffer Positions {
    vec2 positions[];
} out_positions;
layout(location = 0) in vec3 position;
layout(location = 0) out vec3 colour;
void main() {
    gl_Position = vec4(position, 1.0);
    out_positions.positions[gl_VertexIndex] = position.xy * 2.0 + vec2(1.0, 0.5);
    colour = vec3(1.0, 1.0, 0.0);
}
