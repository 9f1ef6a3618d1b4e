#version 450
#extension GL_ARB_gpu_shader_int64 : require
// 64-bit division and remainder (shaderInt64): glslang's % is OpUMod and OpSMod. GLSL
// leaves % of negative operands undefined, so the signed one takes halved operands.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint64_t operands[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint64_t results[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint64_t a = operands[2u * i];
    uint64_t b = operands[2u * i + 1u];
    uint o = 4u * i;
    results[o + 0u] = a / b;
    results[o + 1u] = a % b;
    results[o + 2u] = uint64_t(int64_t(a) / int64_t(b));
    results[o + 3u] = uint64_t(int64_t(a >> 1) % int64_t(b >> 1));
}
