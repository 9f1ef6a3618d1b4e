#version 450
#extension GL_ARB_gpu_shader_int64 : require
// 64-bit integer arithmetic (shaderInt64).
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint64_t operands[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint64_t results[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint64_t a = operands[2u * i];
    uint64_t b = operands[2u * i + 1u];
    int s = int(b & 63ul);
    uint o = 6u * i;
    results[o + 0u] = a + b;
    results[o + 1u] = a - b;
    results[o + 2u] = a * b;
    results[o + 3u] = a >> s;
    results[o + 4u] = uint64_t(int64_t(a) >> s);
    results[o + 5u] = (a < b ? 1ul : 0ul) | (int64_t(a) < int64_t(b) ? 2ul : 0ul) | (uint64_t(uint(a)) << 32);
}
