#version 450
// Specialisation constants through OpSpecConstantOp's CompositeExtract and
// FConvert to 16 bits.
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
layout(local_size_x = 1) in;
layout(constant_id = 0) const uint a = 3u;
layout(constant_id = 1) const uint b = 5u;
layout(constant_id = 2) const float f = 1.5;
const uvec3 v = uvec3(a, b, a + b);
const uint second = v.y;
const uint third = v[2];
const float16_t h = float16_t(f);
layout(std430, set = 0, binding = 0) buffer Out { uint o[]; };

void main() {
    o[0] = second;
    o[1] = third;
    o[2] = v.x;
    o[3] = uint(float16BitsToUint16(h));
}
