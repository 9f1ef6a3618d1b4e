#version 450
// Push constants: scalars, a vector and an array indexed at run time.
layout(local_size_x = 64) in;
layout(push_constant) uniform PC { uint base; float gain; uvec2 mask; uint table[4]; } pc;
layout(set = 0, binding = 0) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    o[i] = pc.base + uint(float(i) * pc.gain) + ((i & pc.mask.x) | pc.mask.y) + pc.table[i & 3u];
}
