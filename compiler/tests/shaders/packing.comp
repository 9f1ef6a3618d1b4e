#version 450
// The pack and unpack built-ins.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { vec4 a[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 v = a[i];                      // in (-1.2, 1.2)
    o[i * 8u + 0u] = packUnorm4x8(v);
    o[i * 8u + 1u] = packSnorm4x8(v);
    o[i * 8u + 2u] = packUnorm2x16(v.xy);
    o[i * 8u + 3u] = packSnorm2x16(v.zw);
    o[i * 8u + 4u] = packHalf2x16(v.xy);
    vec2 h = unpackHalf2x16(i * 0x10001u + 0x3c003800u);
    o[i * 8u + 5u] = floatBitsToUint(h.x + h.y);
    vec4 u = unpackUnorm4x8(i * 0x01020304u);
    o[i * 8u + 6u] = uint(u.x * 255.0 + 0.5) + uint(u.w * 255.0 + 0.5) * 256u;
    vec4 s = unpackSnorm4x8(i * 0x01030507u);
    o[i * 8u + 7u] = uint(int(round(s.y * 127.0)) + 1000);
}
