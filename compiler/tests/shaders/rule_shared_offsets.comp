#version 450
// Shared-memory accesses at constant offsets on both sides of ldl/stl's 13-bit signed
// immediate range (4095 bytes): element 1023 is at byte 4092, element 1024 at 4096.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) writeonly buffer O { uint o[]; };
shared uint big[2048];
void main() {
    uint l = gl_LocalInvocationID.x;
    big[l] = l;
    big[l + 1023u] = l * 3u;
    big[l + 1500u] = l * 5u;
    barrier();
    o[gl_GlobalInvocationID.x] = big[l] + big[l + 1023u] * 100u + big[l + 1500u] * 10000u;
}
