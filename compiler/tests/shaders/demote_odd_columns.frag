#version 450
#extension GL_EXT_demote_to_helper_invocation : require
// The right column of every quad demotes itself: it writes nothing, but goes on as a
// helper, so the left column's fine x derivatives still see it (of x^2 in red, of
// helperInvocationEXT() in green); blue: the left column's own helperInvocationEXT().
layout(location = 0) out vec4 o;
void main() {
    float x = gl_FragCoord.x;
    if ((int(x) & 1) == 1)
        demote;
    float h = helperInvocationEXT() ? 1.0 : 0.0;
    o = vec4(dFdxFine(x * x) / 255.0, dFdxFine(h), h, 1.0);
}
