#version 450
// Vector arithmetic, swizzles and the geometric built-ins.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { vec4 a[]; };
layout(set = 0, binding = 1) writeonly buffer O { vec4 o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 x = a[i], y = a[255u - i];
    o[i * 5u + 0u] = x * 2.0 + y.wzyx;
    o[i * 5u + 1u] = vec4(dot(x, y), length(x.xyz), distance(x.xy, y.zw), dot(x.xz, y.yw));
    o[i * 5u + 2u] = vec4(cross(x.xyz, y.xyz), 1.0);
    o[i * 5u + 3u] = vec4(normalize(x.xyz + vec3(0.5)), x.w);
    vec3 n = normalize(vec3(0.2, 1.0, 0.3));
    o[i * 5u + 4u] = vec4(reflect(x.xyz, n), faceforward(y.x, x.y, y.z));
}
