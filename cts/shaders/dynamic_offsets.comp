#version 450
// A dynamic uniform buffer and a dynamic storage buffer: the offsets given
// when binding select what is read and where it is written.
layout(local_size_x = 16) in;
layout(std140, set = 0, binding = 0) uniform Params { uvec4 scale; } params;
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint results[16]; } out_slice;

void main() {
    uint k = gl_LocalInvocationID.x;
    out_slice.results[k] = params.scale.x * k + params.scale.y;
}
