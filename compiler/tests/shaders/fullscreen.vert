#version 450
// Vertices (-1, -1), (3, -1), (-1, 3): one triangle over the whole viewport.
void main() {
    int i = gl_VertexIndex;
    gl_Position = vec4(float((i & 1) * 4 - 1), float((i & 2) * 2 - 1), 0.0, 1.0);
}
