#version 450
// Comparisons, min/max and selection, signed and unsigned.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uvec2 operands[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint results[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint a = operands[i].x;
    uint b = operands[i].y;
    int sa = int(a);
    int sb = int(b);
    uint flags = uint(a < b) | uint(sa < sb) << 1 | uint(a == b) << 2 | uint(sa >= sb) << 3
               | uint(a != b && sa > 0) << 4 | uint(a <= b || sb < 0) << 5;
    uint o = 6u * i;
    results[o + 0u] = flags;
    results[o + 1u] = min(a, b);
    results[o + 2u] = uint(min(sa, sb));
    results[o + 3u] = max(a, b);
    results[o + 4u] = uint(max(sa, sb));
    results[o + 5u] = sa < 0 ? a : (b > 1000u ? b - a : a + b);
}
