#version 450
// A uniform block in the std430 layout (uniformBufferStandardLayout): an array of
// floats 4 bytes apart and a uvec3 with a uint packed after it, which std140 would
// place 16 bytes apart and at 16-byte boundaries.
#extension GL_EXT_scalar_block_layout : require
layout(local_size_x = 64) in;
layout(std430, binding = 0) uniform Params { float f[8]; uvec3 u; uint w; vec2 pair[4]; };
layout(std430, binding = 1) buffer Output { uint o[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    o[2u * i] = floatBitsToUint(f[i % 8u] + pair[i % 4u][i % 2u]);
    o[2u * i + 1u] = u[i % 3u] + w * i;
}
