#version 450
// Operations Vulkan bounds by a tolerance, not to the bit.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer In { vec4 operands[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { float results[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 v = operands[i];
    uint o = 7u * i;
    results[o + 0u] = v.x / v.y;
    results[o + 1u] = sqrt(v.z);
    results[o + 2u] = inversesqrt(v.z);
    results[o + 3u] = exp2(v.w);
    results[o + 4u] = log2(v.z);
    results[o + 5u] = sin(v.x);
    results[o + 6u] = cos(v.x);
}
