#version 450
// Signed atomic min and max on int buffer words.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) readonly buffer In { int values[]; };
layout(std430, set = 0, binding = 1) buffer Slots { int slots[]; };

void main() {
    int v = values[gl_GlobalInvocationID.x];
    atomicMin(slots[0], v);
    atomicMax(slots[1], v);
}
