#version 450
// Writes a vec4 through binding 1 alone: one shader module serves pipeline
// layouts that place that binding differently.
layout(local_size_x = 1) in;
layout(std430, set = 0, binding = 1) buffer Block { vec4 data; };

void main() {
    data = vec4(1.0, 2.0, 3.0, 4.0);
}
