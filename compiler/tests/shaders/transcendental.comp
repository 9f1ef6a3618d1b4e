#version 450
// Transcendental built-ins, compared with the CPU within a tolerance.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer O { float o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = a[i];            // in (0.05, 4)
    float s = x * 0.2 - 0.4;   // in (-0.4, 0.4)
    o[i * 14u + 0u] = sqrt(x);
    o[i * 14u + 1u] = inversesqrt(x);
    o[i * 14u + 2u] = exp(s);
    o[i * 14u + 3u] = exp2(s);
    o[i * 14u + 4u] = log(x);
    o[i * 14u + 5u] = log2(x);
    o[i * 14u + 6u] = pow(x, 1.5);
    o[i * 14u + 7u] = sin(s * 3.0);
    o[i * 14u + 8u] = cos(s * 3.0);
    o[i * 14u + 9u] = tan(s);
    o[i * 14u + 10u] = atan(x - 2.0);
    o[i * 14u + 11u] = atan(s, x - 2.0);
    o[i * 14u + 12u] = asin(s) + acos(s);
    o[i * 14u + 13u] = sinh(s) + cosh(s) + tanh(s);
}
