#version 450
// Reads a std430 block member by member into raw words, and writes a
// transformed copy of it into a second block of the same layout, member by
// member, which must leave the padding bytes alone.
layout(local_size_x = 1) in;
struct Item { vec3 p; float w; vec2 uv; };
layout(std430, set = 0, binding = 0) readonly buffer Data {
    float a;
    float arr[3];
    vec2 b;
    vec3 c;
    float d;
    mat2 m;
    Item items[2];
    uint tail[];
} src;
layout(std430, set = 0, binding = 1) writeonly buffer Copy {
    float a;
    float arr[3];
    vec2 b;
    vec3 c;
    float d;
    mat2 m;
    Item items[2];
    uint tail[];
} dst;
layout(std430, set = 0, binding = 2) writeonly buffer Out { uint results[]; };

uint n = 0u;
void put(float x) { results[n++] = floatBitsToUint(x); }

void main() {
    put(src.a);
    for (int k = 0; k < 3; k++) put(src.arr[k]);
    put(src.b.x); put(src.b.y);
    put(src.c.x); put(src.c.y); put(src.c.z);
    put(src.d);
    put(src.m[0][0]); put(src.m[0][1]); put(src.m[1][0]); put(src.m[1][1]);
    for (int k = 0; k < 2; k++) {
        put(src.items[k].p.x); put(src.items[k].p.y); put(src.items[k].p.z);
        put(src.items[k].w);
        put(src.items[k].uv.x); put(src.items[k].uv.y);
    }
    uint length = uint(src.tail.length());
    results[n++] = length;
    for (uint k = 0u; k < length; k++) results[n++] = src.tail[k];

    dst.a = src.a * 2.0;
    for (int k = 0; k < 3; k++) dst.arr[k] = src.arr[k] * 2.0;
    dst.b = src.b * 2.0;
    dst.c = src.c * 2.0;
    dst.d = src.d * 2.0;
    dst.m = src.m * 2.0;
    for (int k = 0; k < 2; k++) {
        dst.items[k].p = src.items[k].p * 2.0;
        dst.items[k].w = src.items[k].w * 2.0;
        dst.items[k].uv = src.items[k].uv * 2.0;
    }
    for (uint k = 0u; k < length; k++) dst.tail[k] = src.tail[k] + 1u;
}
