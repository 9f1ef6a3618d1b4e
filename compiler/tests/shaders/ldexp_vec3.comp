#version 450
// ldexp on vec3, laid out as dEQP's shader executor lays out its inputs and outputs
// (glsl.builtin.precision.ldexp_subnormals.highp.vec3): subnormal and normal x, exponents
// far beyond one power of two's range.
layout(local_size_x = 64) in;
struct Inputs { highp vec3 in0; highp ivec3 in1; };
struct Outputs { highp vec3 out0; };
layout(set = 0, binding = 0, std430) readonly buffer In { Inputs inputs[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { Outputs outputs[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    outputs[i].out0 = ldexp(inputs[i].in0, inputs[i].in1);
}
