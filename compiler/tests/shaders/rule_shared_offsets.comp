#version 450
// Shared-memory accesses whose constant byte offsets sit on both sides of ldl/stl's 13-bit
// signed immediate (-4096..4095): +4092 and -4096 fit, +4096, +6000 and -4100 do not and
// must come from the address register. Elements are 2 apart per invocation so that the
// accesses 4 bytes apart do not overlap.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer B { uint base; }; // 1025 at run time
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };
shared uint big[2048];
void main() {
    uint l = gl_LocalInvocationID.x;
    uint e = 2u * l;
    big[e] = l;                 // +0
    big[e + 1u] = l + 100u;     // +4
    big[e + 1023u] = l * 3u;    // +4092
    big[e + 1024u] = l * 5u;    // +4096
    big[e + 1500u] = l * 7u;    // +6000
    barrier();
    uint b = base + e;          // a run-time address: the constants below stay offsets
    uint i = gl_GlobalInvocationID.x * 5u;
    o[i] = big[b - 1025u];      // -4100: big[e]
    o[i + 1u] = big[b - 1024u]; // -4096: big[e + 1]
    o[i + 2u] = big[e + 1023u];
    o[i + 3u] = big[e + 1024u];
    o[i + 4u] = big[e + 1500u];
}
