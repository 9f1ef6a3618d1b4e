#version 450
// Each invocation stores to shared memory; after a barrier, each reads what
// the mirror invocation stored.
layout(local_size_x = 128) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint values[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint results[]; };
shared uint mirror[128];

void main() {
    uint l = gl_LocalInvocationID.x;
    mirror[l] = values[gl_GlobalInvocationID.x];
    barrier();
    results[gl_GlobalInvocationID.x] = mirror[127u - l];
}
