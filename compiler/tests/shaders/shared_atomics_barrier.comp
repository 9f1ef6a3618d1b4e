#version 430
// dEQP-VK.compute.pipeline.basic.atomic_barrier_sum_small's shader (an amber test from
// WebGPU's CTS): one invocation exchanges 7 into a shared word, all three add 1 after a
// barrier, and after another the first exchanges the sum out.
layout(local_size_x = 3) in;
layout(set = 0, binding = 0) buffer Out { uint results[]; };
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
