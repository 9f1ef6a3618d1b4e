#version 450
// Red where the quad's horizontal neighbour is a helper invocation, green where the
// vertical one is (the fine derivatives of gl_HelperInvocation), and a fifth of fwidth
// in blue (their sum).
layout(location = 0) out vec4 o;
void main() {
    float h = gl_HelperInvocation ? 1.0 : 0.0;
    o = vec4(abs(dFdxFine(h)), abs(dFdyFine(h)), fwidthFine(h) * 0.2, 1.0);
}
