#version 450
#extension GL_EXT_terminate_invocation : require
#extension GL_EXT_demote_to_helper_invocation : require
// The top half: odd columns end with terminateInvocation and write nothing.
// The bottom half: odd columns demote themselves to helpers, so they write
// nothing but their even neighbours' fine x derivatives still see them: of
// x * x in red (2x + 1), of helperInvocationEXT() in green (1); blue is the
// even column's own helperInvocationEXT() (0).
layout(location = 0) out vec4 o;
void main() {
    int x = int(gl_FragCoord.x);
    bool odd = (x & 1) == 1;
    if (gl_FragCoord.y < 32.0) {
        if (odd) {
            terminateInvocation;
        }
        o = vec4(1.0, 0.0, 1.0, 1.0);
    } else {
        if (odd) {
            demote;
        }
        float h = helperInvocationEXT() ? 1.0 : 0.0;
        float v = float(x * x);
        o = vec4(dFdxFine(v) / 255.0, dFdxFine(h), h, 1.0);
    }
}
