#version 450
// Structs in function memory, passed to and returned from functions (inlined), with
// in, out and inout parameters.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { int a[]; };
layout(set = 0, binding = 1) writeonly buffer O { int o[]; };
struct Pair { int lo; int hi; ivec2 both; };
Pair make(int x, int y) { Pair p; p.lo = min(x, y); p.hi = max(x, y); p.both = ivec2(x, y); return p; }
int span(Pair p) { return p.hi - p.lo; }
void grow(inout Pair p, int by) { p.hi += by; p.lo -= by; }
void split(int v, out int q, out int r) { q = v / 7; r = v - q * 7; }
void main() {
    uint i = gl_GlobalInvocationID.x;
    Pair p = make(a[i], a[(i + 9u) % 256u]);
    grow(p, 3);
    int q, r;
    split(abs(p.both.x), q, r);
    o[i * 4u + 0u] = span(p);
    o[i * 4u + 1u] = p.both.y - p.lo;
    o[i * 4u + 2u] = q;
    o[i * 4u + 3u] = r;
}
