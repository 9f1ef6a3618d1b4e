#version 450
// Nested if/else with values merged after each branch.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { int a[]; };
layout(set = 0, binding = 1) writeonly buffer O { int o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int x = a[i], r;
    if (x > 100) {
        r = x - 100;
        if ((x & 1) == 0) r *= 2; else r += 1;
    } else if (x < -100) {
        r = -x;
    } else {
        r = 7;
        if (x == 0) r = 1000;
    }
    if (r > 50) o[i] = r; else o[i] = -r;
}
