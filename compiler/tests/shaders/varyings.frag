#version 450
// Interpolated, flat and noperspective inputs, gl_FragCoord, and integer and float colour
// outputs to two targets.
layout(location = 0) in vec2 v_uv;
layout(location = 1) flat in ivec2 v_cell;
layout(location = 2) noperspective in float v_weight;
layout(location = 3) centroid in vec4 v_extra[2];
layout(location = 0) out vec4 color;
layout(location = 1) out uvec2 ids;
void main() {
    vec2 p = gl_FragCoord.xy / 64.0;
    color = vec4(v_uv * p, v_weight, v_extra[1].w + v_extra[0].z + gl_FragCoord.z);
    ids = uvec2(v_cell) + uvec2(gl_FragCoord.xy);
}
