#version 450
// Derivatives of f = 2 x y at the fragment's centre, in UNORM8 steps: fine and coarse
// along x, fine and coarse along y.
layout(location = 0) out vec4 o;
void main() {
    float f = 2.0 * gl_FragCoord.x * gl_FragCoord.y;
    o = vec4(dFdxFine(f), dFdxCoarse(f), dFdyFine(f), dFdyCoarse(f)) / 255.0;
}
