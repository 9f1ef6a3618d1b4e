#version 450
// The driver's buffer fill (driver/src/internal_shaders/mod.rs): `count`
// dwords of `dst` from dword `first` receive `value`.
layout(local_size_x = 64) in;

layout(set = 4, binding = 0) writeonly buffer Dst { uint dst[]; };

layout(push_constant) uniform Params {
    uint first;
    uint count;
    uint value;
};

void main()
{
    uint i = gl_GlobalInvocationID.x;
    if (i < count)
        dst[first + i] = value;
}
