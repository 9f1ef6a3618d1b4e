#version 450
#extension GL_EXT_shader_image_load_formatted : require
// Storage texel buffers declared without a format (StorageImageReadWithoutFormat and
// StorageImageWriteWithoutFormat): the view's format converts.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform readonly imageBuffer snorm;   // RGBA8 SNORM
layout(set = 0, binding = 1) uniform readonly iimageBuffer sint8;  // R8 SINT
layout(set = 0, binding = 2) uniform writeonly uimageBuffer uint16; // RG16 UINT
layout(std430, set = 0, binding = 3) writeonly buffer Out { vec4 read[256]; ivec4 ints[256]; };

void main() {
    int i = int(gl_GlobalInvocationID.x);
    read[i] = imageLoad(snorm, i);
    ints[i] = imageLoad(sint8, i);
    imageStore(uint16, i, uvec4(i * 3, 65535 - i, 7, 9));
}
