#version 450
// y = a * x + y over two buffers, the scale from a push constant.
layout(local_size_x = 64) in;
layout(push_constant) uniform PC { float a; } pc;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) buffer Y { float y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    y[i] = pc.a * x[i] + y[i];
}
