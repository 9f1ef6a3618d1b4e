#version 450
// All 128 bytes of push constants every device has; word 16 says which
// slice of the output this dispatch writes.
layout(local_size_x = 32) in;
layout(push_constant) uniform Words { uint words[32]; };
layout(std430, set = 0, binding = 0) writeonly buffer Out { uint results[]; };

void main() {
    uint k = gl_LocalInvocationID.x;
    results[32u * words[16] + k] = words[k] * (k + 1u);
}
