#version 450
// Unsigned and signed division and remainder. Signed division truncates
// toward zero. GLSL leaves `%` undefined for negative operands (glslang emits
// OpSMod, which lavapipe 22.3 evaluates as OpSRem), so the signed remainder
// is taken of non-negative operands only.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uvec2 operands[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uvec4 results[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint a = operands[i].x;
    uint b = operands[i].y;
    int sa = int(a);
    int sb = int(b);
    results[i] = uvec4(a / b, a % b, uint(sa / sb), uint((sa & 0x7fffffff) % (sb & 0x7fffffff)));
}
