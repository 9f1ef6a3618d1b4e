#version 450
// Functions with early returns from inside loops, inout parameters and
// calls from divergent branches.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint values[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uvec2 results[]; };

uint first_multiple(uint v, uint of) {
    for (uint j = 0u; j < 64u; j++) {
        if ((v + j) % of == 0u)
            return j;
    }
    return 999u;
}

void accumulate(inout uint acc, uint x) {
    if (x == 0u)
        return;
    acc = (acc << 3) ^ x;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = values[i];
    uint acc = 0u;
    accumulate(acc, first_multiple(v, 13u));
    if ((v & 2u) != 0u)
        accumulate(acc, first_multiple(v >> 4, 61u));
    accumulate(acc, first_multiple(v, 97u));
    results[i] = uvec2(acc, first_multiple(v, 211u));
}
