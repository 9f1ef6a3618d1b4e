#version 450
// Specialisation constant expressions (OpSpecConstantOp) sizing an array and a loop.
layout(local_size_x = 32) in;
layout(constant_id = 0) const uint TAPS = 2u;
const uint WIDTH = TAPS * 2u + 1u;
const uint SHIFT = (TAPS << 1u) | 1u;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint window[WIDTH];
    for (uint k = 0u; k < WIDTH; k++) window[k] = a[(i + k) % 64u];
    uint acc = 0u;
    for (uint k = 0u; k < WIDTH; k++) acc += window[k] << (k % SHIFT);
    o[i] = acc + WIDTH * 1000u;
}
