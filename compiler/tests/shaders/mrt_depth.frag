#version 450
// Three render targets of three types, and a depth from the pixel's column.
layout(location = 0) out vec4 c0;
layout(location = 1) out ivec4 c1;
layout(location = 2) out uvec4 c2;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    c0 = vec4(0.25, 0.5, 0.75, 1.0);
    c1 = ivec4(p.x - 50, -p.y, p.x * p.y, -7);
    c2 = uvec4(p.x, p.y, 65535u, 40000u + uint(p.x));
    gl_FragDepth = gl_FragCoord.x / 96.0;
}
