#version 450
// Three descriptor sets: parameters, input and output.
layout(local_size_x = 64) in;
layout(std140, set = 0, binding = 0) uniform Params { uint add; uint mul; } params;
layout(std430, set = 1, binding = 0) readonly buffer In { uint values[]; };
layout(std430, set = 2, binding = 0) writeonly buffer Out { uint results[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    results[i] = values[i] * params.mul + params.add;
}
