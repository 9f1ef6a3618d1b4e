#version 450
#extension GL_ARB_gpu_shader_int64 : require
// 64-bit division and remainder, unsigned and signed (glslang's % is OpUMod / OpSMod).
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) readonly buffer In { uint64_t v[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint64_t o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint64_t a = v[2u * i], b = v[2u * i + 1u];
    int64_t x = int64_t(a), y = int64_t(b);
    o[4u * i + 0u] = a / b;
    o[4u * i + 1u] = a % b;
    o[4u * i + 2u] = uint64_t(x / y);
    o[4u * i + 3u] = uint64_t(x % y);
}
