#version 430
// A shared word set by an atomic exchange, incremented by every invocation after a
// barrier, and read back by an exchange after another (dEQP-VK's
// compute.pipeline.basic.atomic_barrier_sum_small, from WebGPU's CTS): 7 + 3.
layout(local_size_x = 3) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint unused[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint results[]; };
shared uint word;

void main() {
    if (gl_LocalInvocationID.x == 0u) {
        atomicExchange(word, 7u);
    }
    barrier();
    atomicAdd(word, 1u);
    barrier();
    if (gl_LocalInvocationID.x == 0u) {
        results[gl_WorkGroupID.x] = atomicExchange(word, 0u);
    }
}
