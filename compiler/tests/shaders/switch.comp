#version 450
// switch with fallthrough, a shared case body and a default in the middle.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) writeonly buffer O { int o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int r = 0;
    switch (int(i % 9u) - 2) {
        case -2: r += 1;
        case -1: r += 10; break;
        case 0:
        case 1: r = 100; break;
        default: r = -5;
        case 4: r += 1000; break;
        case 6: r = int(i); break;
    }
    o[i] = r;
}
