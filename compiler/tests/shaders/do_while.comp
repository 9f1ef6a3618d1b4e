#version 450
// A do-while loop (condition tested after the body) computing a digit sum.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint v = a[i], digits = 0u, sum = 0u;
    do {
        sum += v % 10u;
        v /= 10u;
        digits++;
    } while (v != 0u);
    o[i] = sum + digits * 1000u;
}
