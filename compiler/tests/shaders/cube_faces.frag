#version 450
// Six 16-pixel columns, each looking at one face of the cube: +X, -X, +Y, -Y, +Z, -Z.
layout(set = 0, binding = 0) uniform samplerCube cube;
layout(location = 0) out vec4 o;
void main() {
    int face = int(gl_FragCoord.x) / 16;
    vec3 dirs[6] = vec3[](vec3(1.0, 0.1, 0.2), vec3(-1.0, 0.1, 0.2), vec3(0.1, 1.0, 0.2),
                          vec3(0.1, -1.0, 0.2), vec3(0.1, 0.2, 1.0), vec3(0.1, 0.2, -1.0));
    o = textureLod(cube, dirs[face], 0.0);
}
