#version 450
// Booleans: logic, comparisons, selects, and booleans kept in local variables.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { int a[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int x = a[i], y = a[(i + 5u) % 256u];
    bool p = x > y, q = (x & 1) == 0, r = x != -y;
    bool t = (p && q) || (!r && p);
    bool u = p != q;
    bool v = p == (q || r);
    o[i] = uint(t) | (uint(u) << 1) | (uint(v) << 2) | (uint(!p) << 3) | ((t ? 5u : 9u) << 4);
}
