#version 450
// Atomics on shared memory: a per-group histogram, then copied out.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };
shared uint bins[8];
shared uint maxima;
void main() {
    uint l = gl_LocalInvocationID.x;
    if (l < 8u) bins[l] = 0u;
    if (l == 0u) maxima = 0u;
    barrier();
    uint v = a[gl_GlobalInvocationID.x];
    atomicAdd(bins[v & 7u], 1u);
    atomicMax(maxima, v >> 8);
    barrier();
    if (l < 8u) o[gl_WorkGroupID.x * 9u + l] = bins[l];
    if (l == 8u) o[gl_WorkGroupID.x * 9u + 8u] = maxima;
}
