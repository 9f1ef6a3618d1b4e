#version 450
// Red for back faces, green for front ones; blue: the coverage mask in UNORM8 steps;
// alpha: the sample id plus 2 for a helper invocation (none write colour), in steps.
layout(location = 0) out vec4 o;
void main() {
    float facing = gl_FrontFacing ? 1.0 : 0.0;
    float id = float(gl_SampleID + (gl_HelperInvocation ? 2 : 0));
    o = vec4(1.0 - facing, facing, float(gl_SampleMaskIn[0]) / 255.0, (id + 200.0) / 255.0);
}
