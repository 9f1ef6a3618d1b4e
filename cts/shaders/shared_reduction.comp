#version 450
// A tree reduction in shared memory: log2(256) rounds, a barrier each.
layout(local_size_x = 256) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint values[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uvec2 results[]; };
shared uint sums[256];
shared uint maxima[256];

void main() {
    uint l = gl_LocalInvocationID.x;
    uint v = values[gl_GlobalInvocationID.x];
    sums[l] = v;
    maxima[l] = v;
    barrier();
    for (uint stride = 128u; stride > 0u; stride >>= 1) {
        if (l < stride) {
            sums[l] += sums[l + stride];
            maxima[l] = max(maxima[l], maxima[l + stride]);
        }
        barrier();
    }
    if (l == 0u)
        results[gl_WorkGroupID.x] = uvec2(sums[0], maxima[0]);
}
