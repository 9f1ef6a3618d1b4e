#version 450
// Packing to and from half floats and 8-bit unsigned normalised values, on
// values where no rounding choice arises.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer In { vec4 operands[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uvec4 results[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 v = operands[i];
    uint half2 = packHalf2x16(v.xy);
    vec2 back = unpackHalf2x16(half2);
    results[i] = uvec4(half2, floatBitsToUint(back.x), floatBitsToUint(back.y), packUnorm4x8(v.zwzw * vec4(1.0, 1.0, 0.5, 0.25)));
}
