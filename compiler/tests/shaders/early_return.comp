#version 450
// Functions with several returns, and an early return from main.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { int a[]; };
layout(set = 0, binding = 1) buffer O { int o[]; };
int classify(int x) {
    if (x < 0) return -1;
    for (int k = 1; k < 8; k++)
        if (x < k * 1000) return k;
    return 99;
}
void main() {
    uint i = gl_GlobalInvocationID.x;
    int c = classify(a[i]);
    if (c == 99) return;
    o[i] = c * 3;
}
