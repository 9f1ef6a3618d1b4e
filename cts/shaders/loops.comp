#version 450
// Loops whose trip count differs per invocation, with continue and break.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint values[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uvec2 results[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = values[i];
    uint acc = v;
    uint steps = 0u;
    for (uint j = 0u; j < v % 37u; j++) {
        acc = acc * 31u + j;
        if (acc % 7u == 0u)
            continue;
        steps++;
        if (acc > 0xf0000000u)
            break;
    }
    uint k = v;
    while (k > 1u && steps < 1000u) {
        k = (k & 1u) != 0u ? k / 2u : k / 3u;
        steps += 2u;
    }
    results[i] = uvec2(acc, steps);
}
