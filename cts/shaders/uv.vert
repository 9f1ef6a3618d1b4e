#version 450
// A position from the vertex buffer, and texture coordinates that map NDC
// [-1, 1] to [0, 1] in both directions.
layout(location = 0) in vec3 position;
layout(location = 0) out vec2 uv;
void main() {
    gl_Position = vec4(position, 1.0);
    uv = position.xy * 0.5 + 0.5;
}
