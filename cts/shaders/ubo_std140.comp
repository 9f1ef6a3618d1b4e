#version 450
// Reads every member of a std140 uniform block and stores it as raw words.
layout(local_size_x = 1) in;
struct Inner { float f; vec3 v; };
layout(std140, set = 0, binding = 0) uniform Block {
    float a;
    vec2 b;
    vec3 c;
    float d;
    float arr[3];
    mat3 m;
    Inner inner[2];
    ivec2 e;
    uvec4 g;
} ubo;
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint results[]; };

uint n = 0u;
void put(float x) { results[n++] = floatBitsToUint(x); }
void put_u(uint x) { results[n++] = x; }

void main() {
    put(ubo.a);
    put(ubo.b.x); put(ubo.b.y);
    put(ubo.c.x); put(ubo.c.y); put(ubo.c.z);
    put(ubo.d);
    for (int k = 0; k < 3; k++) put(ubo.arr[k]);
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++) put(ubo.m[c][r]);
    for (int k = 0; k < 2; k++) {
        put(ubo.inner[k].f);
        put(ubo.inner[k].v.x); put(ubo.inner[k].v.y); put(ubo.inner[k].v.z);
    }
    put_u(uint(ubo.e.x)); put_u(uint(ubo.e.y));
    for (int k = 0; k < 4; k++) put_u(ubo.g[k]);
}
