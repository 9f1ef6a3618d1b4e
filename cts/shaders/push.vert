#version 450
// A position moved by the push constants' offset and, per instance, right
// by half the instance index (which counts from the draw's firstInstance).
layout(push_constant) uniform Push {
    vec2 offset;
} p;
layout(location = 0) in vec3 position;
void main() {
    vec2 instance = vec2(0.5 * float(gl_InstanceIndex), 0.0);
    gl_Position = vec4(position.xy + p.offset + instance, position.z, 1.0);
}
