#version 450
// A saturate of a select, the shape (sat) must not be folded into: sel has no working
// (sat) (Mesa's is_sat_compatible).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer O { float o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = a[i], y = a[255u - i];
    o[i] = clamp(x > y ? x : y * 2.0, 0.0, 1.0) + smoothstep(0.0, 1.0, x < 0.5 ? x : -y);
}
