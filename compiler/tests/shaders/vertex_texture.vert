#version 450
// two_facings.vert's two triangles, each with a flat colour the vertex shader samples:
// level 1 texel (0, 0) for the left one, level 2 texel (1, 0) for the right one.
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) flat out vec4 colour;
void main() {
    vec2 p[6] = vec2[](vec2(-1.0, -1.0), vec2(0.0, -1.0), vec2(-1.0, 1.0),
                       vec2(1.0, -1.0), vec2(0.0, 1.0), vec2(1.0, 1.0));
    gl_Position = vec4(p[gl_VertexIndex], 0.0, 1.0);
    bool right = gl_VertexIndex >= 3;
    colour = textureLod(tex, right ? vec2(0.75, 0.25) : vec2(0.25, 0.25), right ? 2.0 : 1.0);
}
