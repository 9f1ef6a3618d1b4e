#version 450
// A switch with fall-through, a default in the middle and an empty case.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint values[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint results[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = values[i];
    uint r = 1u;
    switch (v % 9u) {
    case 0u:
        r += 10u;
    case 1u:
        r *= 3u;
        break;
    case 2u:
    case 3u:
        r = v;
        break;
    default:
        r = 100u;
    case 6u:
        r += 5u;
        break;
    case 7u:
        break;
    }
    results[i] = r;
}
