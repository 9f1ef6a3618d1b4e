#version 450
// Implicit-LOD sampling, push constants and a uniform buffer in a fragment shader.
layout(early_fragment_tests) in;
layout(push_constant) uniform P { vec4 tint; } pc;
layout(set = 0, binding = 0) uniform U { vec4 scale; } u;
layout(set = 0, binding = 1) uniform sampler2D tex;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 o;
void main() { o = texture(tex, uv) * pc.tint * u.scale; }
