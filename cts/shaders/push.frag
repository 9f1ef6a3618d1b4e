#version 450
// The push constants' colour (after the vertex stage's offset).
layout(push_constant) uniform Push {
    layout(offset = 16) vec4 colour;
} p;
layout(location = 0) out vec4 out_colour;
void main() {
    out_colour = p.colour;
}
