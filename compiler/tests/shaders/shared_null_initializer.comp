#version 450
#extension GL_EXT_null_initializer : require
// Workgroup variables with null initializers (VK_KHR_zero_initialize_workgroup_memory):
// every invocation adds to its own element and to a shared counter, then reads them all.
layout(local_size_x = 48) in;
layout(set = 0, binding = 0) writeonly buffer O { uint o[]; };
struct S { uint a; uint b[3]; };
shared S s[50] = {};
shared uint counter = {};
void main() {
    uint l = gl_LocalInvocationIndex;
    atomicAdd(counter, l);
    s[l].b[l % 3u] += l + 1u;
    barrier();
    uint sum = 0u;
    for (uint k = 0u; k < 50u; k++) {
        sum += s[k].a + s[k].b[0] + s[k].b[1] + s[k].b[2];
    }
    o[2u * gl_GlobalInvocationID.x] = sum;
    o[2u * gl_GlobalInvocationID.x + 1u] = counter;
}
