#version 450
// Specialisation constants: the workgroup size, an integer, a float and a boolean.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const int SCALE = 1;
layout(constant_id = 2) const float BIAS = 0.0;
layout(constant_id = 3) const bool NEGATE = false;
layout(set = 0, binding = 0) writeonly buffer O { float o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float v = float(int(i) * SCALE) + BIAS + float(gl_WorkGroupSize.x);
    o[i] = NEGATE ? -v : v;
}
