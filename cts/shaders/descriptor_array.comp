#version 450
// An array of four storage buffers, bound at different offsets and ranges:
// each one's first word and the length of its runtime array.
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 0) readonly buffer Views { uint header; uint data[]; } views[4];
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint results[]; };

void main() {
    results[0] = views[0].header;
    results[1] = uint(views[0].data.length());
    results[2] = views[0].data[views[0].data.length() - 1];
    results[3] = views[1].header;
    results[4] = uint(views[1].data.length());
    results[5] = views[1].data[views[1].data.length() - 1];
    results[6] = views[2].header;
    results[7] = uint(views[2].data.length());
    results[8] = views[2].data[views[2].data.length() - 1];
    results[9] = views[3].header;
    results[10] = uint(views[3].data.length());
    results[11] = views[3].data[views[3].data.length() - 1];
}
