#version 450
// block_varyings.vert's block, matched by location.
layout(location = 1) in Data {
    vec3 colour;
    layout(location = 4) flat uint tag;
    float shade;
} v;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(v.colour.r, float(v.tag) / 255.0, v.colour.b, v.shade);
}
