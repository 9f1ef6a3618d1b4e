#version 450
// ldexp on vec3 with exponents beyond one power of two's range but results in it
// (2^-100 * 2^200): an implementation through exp2(e) overflows or underflows.
layout(local_size_x = 64) in;
struct Inputs { highp vec3 x; highp ivec3 e; };
layout(std430, set = 0, binding = 0) readonly buffer In { Inputs inputs[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { vec4 results[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    results[i] = vec4(ldexp(inputs[i].x, inputs[i].e), 1.0);
}
