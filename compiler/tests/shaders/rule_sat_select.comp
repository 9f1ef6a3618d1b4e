#version 450
// Saturated selects, the shape (sat) must not be folded into: sel has no working (sat)
// (Mesa's is_sat_compatible). Both sides of each ternary are plain values, so glslang
// selects (OpSelect) rather than branches, and smoothstep(0, 1, t) saturates t.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer O { float o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = a[i], y = a[255u - i];
    float y2 = y * 2.0, ny = -y;
    float c = x > y ? x : y2;
    float t = x < 0.5 ? x : ny;
    o[i] = clamp(c, 0.0, 1.0) + smoothstep(0.0, 1.0, t);
}
