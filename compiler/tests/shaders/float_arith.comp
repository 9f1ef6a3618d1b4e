#version 450
// Float arithmetic and the rounding and range built-ins.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer O { float o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = a[i], y = a[255u - i];
    o[i * 12u + 0u] = x + y * 2.0;
    o[i * 12u + 1u] = x - y;
    o[i * 12u + 2u] = x / (abs(y) + 1.0);
    o[i * 12u + 3u] = floor(x);
    o[i * 12u + 4u] = ceil(x);
    o[i * 12u + 5u] = fract(x);
    o[i * 12u + 6u] = trunc(x);
    o[i * 12u + 7u] = roundEven(x);
    o[i * 12u + 8u] = sign(x) * abs(y);
    o[i * 12u + 9u] = clamp(x, -1.5, 2.5);
    o[i * 12u + 10u] = mix(x, y, 0.25);
    o[i * 12u + 11u] = step(0.5, x) + smoothstep(-2.0, 2.0, y) + mod(x, 1.5);
}
