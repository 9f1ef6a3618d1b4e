#version 450
// The length of a runtime array, from the size of the bound buffer.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) readonly buffer A { uvec4 header; uint items[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main() {
    uint n = uint(items.length());
    uint sum = 0u;
    for (uint k = 0u; k < n; k++) sum += items[k];
    o[0] = n;
    o[1] = sum + header.z;
}
