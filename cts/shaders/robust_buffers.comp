#version 450
// robustBufferAccess: loads past the range bound to a storage and a
// uniform buffer, and stores past the end of a storage buffer.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer Data { uint words[]; } data;
layout(std140, set = 0, binding = 1) uniform Params { uvec4 v[16]; } params;
layout(std430, set = 0, binding = 2) buffer Target { uint words[]; } target;
layout(std430, set = 0, binding = 3) writeonly buffer Out {
    uint storage_loads[64];
    uint uniform_loads[64];
} result;

void main() {
    uint i = gl_LocalInvocationID.x;
    result.storage_loads[i] = data.words[i];
    result.uniform_loads[i] = params.v[i / 4u][i % 4u];
    // Every store lands past the 16 words bound.
    target.words[i + 16u] = 0x5eed0000u + i;
}
