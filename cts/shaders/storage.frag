#version 450
// Reads and writes a storage buffer (set 0, binding 0): the word of each
// fragment's pixel, row by row on a 64-pixel-wide target, becomes three
// times itself plus one; and counts the fragments (binding 1). The colour
// is the pixel's new word's low byte in red, opaque green otherwise.
layout(std430, set = 0, binding = 0) buffer Pixels {
    uint words[];
} pixels;
layout(std430, set = 0, binding = 1) buffer Count {
    uint fragments;
} count;
layout(location = 0) out vec4 out_colour;
void main() {
    uint i = uint(gl_FragCoord.y) * 64u + uint(gl_FragCoord.x);
    uint word = pixels.words[i] * 3u + 1u;
    pixels.words[i] = word;
    atomicAdd(count.fragments, 1u);
    out_colour = vec4(float(word & 255u) / 255.0, 1.0, 0.0, 1.0);
}
