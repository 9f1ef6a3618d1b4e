#version 450
// Clears gl_SampleMask (one sample) in odd columns: those fragments are not written.
layout(location = 0) out vec4 o;
void main() {
    gl_SampleMask[0] = (int(gl_FragCoord.x) & 1) == 0 ? -1 : 0;
    o = vec4(0.0, 1.0, 0.0, 1.0);
}
