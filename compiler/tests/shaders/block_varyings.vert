#version 450
// two_facings.vert's triangles passing a block of varyings from location 1: a colour
// (location 1), a flat tag with its own location 4 and a shade after it (location 5).
layout(location = 1) out Data {
    vec3 colour;
    layout(location = 4) flat uint tag;
    float shade;
} v;
void main() {
    vec2 p[6] = vec2[](vec2(-1.0, -1.0), vec2(0.0, -1.0), vec2(-1.0, 1.0),
                       vec2(1.0, -1.0), vec2(0.0, 1.0), vec2(1.0, 1.0));
    gl_Position = vec4(p[gl_VertexIndex], 0.0, 1.0);
    bool right = gl_VertexIndex >= 3;
    v.colour = right ? vec3(0.0, 0.0, 1.0) : vec3(1.0, 0.0, 0.0);
    v.tag = right ? 200u : 77u;
    v.shade = right ? 0.0 : 1.0;
}
