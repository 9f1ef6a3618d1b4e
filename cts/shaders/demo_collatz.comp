#version 450
// The demo's shader (cts/src/bin/parsnip-demo.rs): for n = 1, 2, 3, ...,
// how many steps of the Collatz map (n/2 if even, 3n+1 if odd) take n to 1,
// and the largest value met on the way.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) writeonly buffer Out { uvec2 results[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint n = i + 1u;
    uint steps = 0u;
    uint peak = n;
    while (n != 1u) {
        n = (n & 1u) != 0u ? 3u * n + 1u : n / 2u;
        peak = max(peak, n);
        steps++;
    }
    results[i] = uvec2(steps, peak);
}
