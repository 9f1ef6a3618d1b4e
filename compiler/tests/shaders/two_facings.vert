#version 450
// Two triangles: the left one (vertices 0..2) clockwise on the screen, so back-facing
// with VK_FRONT_FACE_COUNTER_CLOCKWISE; the right one (3..5) counter-clockwise, front.
void main() {
    vec2 p[6] = vec2[](vec2(-1.0, -1.0), vec2(0.0, -1.0), vec2(-1.0, 1.0),
                       vec2(1.0, -1.0), vec2(0.0, 1.0), vec2(1.0, 1.0));
    gl_Position = vec4(p[gl_VertexIndex], 0.0, 1.0);
}
