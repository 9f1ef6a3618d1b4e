#version 450
// Discards the fragments left of x = 48 and those below y = 40 by their gl_FragCoord;
// the rest are red, with their pixel's centre in green and blue.
layout(location = 0) out vec4 o;
void main() {
    if (gl_FragCoord.x < 48.0)
        discard;
    if (gl_FragCoord.y > 40.0)
        discard;
    o = vec4(1.0, gl_FragCoord.x / 255.0, gl_FragCoord.y / 255.0, 1.0);
}
