#version 450
// A std140 uniform buffer: vec3 followed by a scalar, arrays with 16-byte strides, a struct
// array, read with dynamic indices.
layout(local_size_x = 64) in;
struct Light { vec3 dir; float power; };
layout(std140, set = 0, binding = 0) uniform Params {
    vec3 offset;
    float scale;
    float weights[4];
    Light lights[2];
    ivec2 range;
};
layout(set = 0, binding = 1) writeonly buffer O { vec4 o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    Light l = lights[i & 1u];
    float w = weights[i % 4u];
    o[i] = vec4(offset * scale + l.dir * w, l.power + float(clamp(int(i), range.x, range.y)));
}
