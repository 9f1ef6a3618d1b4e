#version 450
// Attributes of several widths and types, the vertex and instance index, and outputs of
// every kind: position, point size, a clip distance and flat/smooth/noperspective varyings.
layout(location = 0) in vec3 pos;
layout(location = 1) in vec2 uv;
layout(location = 2) in ivec2 cell;
layout(location = 3) in float weight;
layout(location = 0) out vec2 v_uv;
layout(location = 1) flat out ivec2 v_cell;
layout(location = 2) noperspective out float v_weight;
layout(location = 3) out vec4 v_extra[2];
void main() {
    float k = float(gl_VertexIndex % 3) + float(gl_InstanceIndex);
    gl_Position = vec4(pos.xy * (1.0 + 0.125 * k), pos.z, 1.0);
    gl_PointSize = 2.0 + weight;
    gl_ClipDistance[0] = pos.x + 0.5;
    v_uv = uv;
    v_cell = cell + ivec2(gl_InstanceIndex);
    v_weight = weight * 0.5;
    for (int i = 0; i < 2; i++)
        v_extra[i] = vec4(uv, float(i), k);
}
