#version 450
// Turnip's reference triangle (apps/tri.vert): positions and colours by
// gl_VertexIndex, no vertex buffers.
layout(location = 0) out vec3 colour;
void main() {
    vec2 pos[3] = vec2[](vec2(0.0, -0.75), vec2(0.75, 0.75), vec2(-0.75, 0.75));
    vec3 col[3] = vec3[](vec3(1.0, 0.0, 0.0), vec3(0.0, 1.0, 0.0), vec3(0.0, 0.0, 1.0));
    gl_Position = vec4(pos[gl_VertexIndex], 0.0, 1.0);
    colour = col[gl_VertexIndex];
}
