#version 450
// Producer/consumer rounds through shared memory, with memoryBarrierShared and barrier.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) writeonly buffer O { uint o[]; };
shared uint ring[32];
void main() {
    uint l = gl_LocalInvocationID.x;
    uint v = l;
    for (uint round = 0u; round < 5u; round++) {
        ring[l] = v;
        memoryBarrierShared();
        barrier();
        v = ring[(l + 1u) % 32u] * 3u + round;
        barrier();
    }
    o[gl_GlobalInvocationID.x] = v;
}
