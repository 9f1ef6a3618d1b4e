#version 450
// Three dynamic uniform buffers at bindings 0, 1 and 2 (the layout lists
// them 2, 0, 1): each dynamic offset belongs to a binding by number.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) uniform Block0 { uint data0; };
layout(set = 0, binding = 1) uniform Block1 { uint data1; };
layout(set = 0, binding = 2) uniform Block2 { uint data2; };
layout(std430, set = 0, binding = 3) buffer Result { uint res[3]; };

void main() {
    res[0] = data0;
    res[1] = data1;
    res[2] = data2;
}
