#version 450
// The driver's buffer copy (driver/src/internal_shaders/mod.rs): bytes
// [dst_first, dst_end) of `dst` receive the bytes of `src` from src_first,
// one destination dword per invocation. A dword the range covers only in
// part keeps its other bytes, so any byte alignment works with dword
// accesses. Offsets are relative to the descriptors' 64-byte-aligned bases.
layout(local_size_x = 64) in;

layout(set = 4, binding = 0) readonly buffer Src { uint src[]; };
layout(set = 4, binding = 1) buffer Dst { uint dst[]; };

layout(push_constant) uniform Params {
    uint dst_first;
    uint dst_end;
    uint src_first;
    uint src_last_dword;
};

void main()
{
    uint d = (dst_first >> 2) + gl_GlobalInvocationID.x;
    uint start = d * 4u;
    if (start >= dst_end)
        return;

    // The source byte that goes to `start`, which may lie before src_first
    // for the first dword (those bytes are not written).
    int s = int(start) + int(src_first) - int(dst_first);
    int lo = s >> 2;
    uint sh = uint(s & 3) * 8u;
    uint value = src[clamp(lo, 0, int(src_last_dword))];
    if (sh != 0u) {
        uint hi = src[clamp(lo + 1, 0, int(src_last_dword))];
        value = (value >> sh) | (hi << (32u - sh));
    }

    uint mask = 0xffffffffu;
    if (start < dst_first)
        mask = mask << ((dst_first - start) * 8u);
    if (start + 4u > dst_end)
        mask = mask & (0xffffffffu >> ((start + 4u - dst_end) * 8u));
    if (mask != 0xffffffffu)
        value = (value & mask) | (dst[d] & ~mask);
    dst[d] = value;
}
