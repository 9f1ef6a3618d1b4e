#version 450
// Float operations Vulkan defines to the bit: add, subtract and multiply
// are correctly rounded; the rest are exact on finite, normal inputs.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer In { vec2 operands[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { float results[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    float a = operands[i].x;
    float b = operands[i].y;
    uint o = 12u * i;
    results[o + 0u] = a + b;
    results[o + 1u] = a - b;
    results[o + 2u] = a * b;
    results[o + 3u] = abs(a);
    results[o + 4u] = -b;
    results[o + 5u] = min(a, b);
    results[o + 6u] = max(a, b);
    results[o + 7u] = floor(a);
    results[o + 8u] = ceil(a);
    results[o + 9u] = trunc(a);
    results[o + 10u] = roundEven(a);
    results[o + 11u] = clamp(a, -1.5, 2.25);
}
