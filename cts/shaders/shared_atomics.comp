#version 450
// Atomics on shared variables, initialised by one invocation; the final
// values do not depend on the order the atomics were served in.
layout(local_size_x = 128) in;
layout(std430, set = 0, binding = 0) readonly buffer In { uint values[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint results[]; };
shared uint total;
shared uint lowest;
shared int highest;
shared uint bits_or;
shared uint bits_and;
shared uint bits_xor;

void main() {
    uint l = gl_LocalInvocationID.x;
    if (l == 0u) {
        total = 0u;
        lowest = 0xffffffffu;
        highest = -2147483647 - 1;
        bits_or = 0u;
        bits_and = 0xffffffffu;
        bits_xor = 0u;
    }
    barrier();
    uint v = values[gl_GlobalInvocationID.x];
    atomicAdd(total, v);
    atomicMin(lowest, v);
    atomicMax(highest, int(v));
    atomicOr(bits_or, 1u << (v & 31u));
    atomicAnd(bits_and, v | 0x0f0f0f0fu);
    atomicXor(bits_xor, v);
    barrier();
    if (l == 0u) {
        uint o = 6u * gl_WorkGroupID.x;
        results[o + 0u] = total;
        results[o + 1u] = lowest;
        results[o + 2u] = uint(highest);
        results[o + 3u] = bits_or;
        results[o + 4u] = bits_and;
        results[o + 5u] = bits_xor;
    }
}
