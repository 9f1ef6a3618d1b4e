#version 450
// Module-scope (Private) variables, one with an initializer, changed by a function.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) writeonly buffer O { uint o[]; };
uint counter = 5u;
uint history[4];
void bump(uint by) { history[counter & 3u] = by; counter += by; }
void main() {
    uint i = gl_GlobalInvocationID.x;
    history[0] = 0u; history[1] = 0u; history[2] = 0u; history[3] = 0u;
    bump(i);
    bump(3u);
    o[i * 2u] = counter;
    o[i * 2u + 1u] = history[0] + history[1] * 10u + history[2] * 100u + history[3] * 1000u;
}
