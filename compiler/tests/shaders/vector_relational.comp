#version 450
// Vector comparisons, any/all/not, and mix with a boolean vector.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { ivec4 a[]; };
layout(set = 0, binding = 1) writeonly buffer O { ivec4 o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    ivec4 x = a[i], y = a[(i + 1u) % 256u];
    bvec4 lt = lessThan(x, y), eq = equal(x & 3, y & 3);
    bvec4 ge = not(lt);
    o[i * 2u] = ivec4(any(lt), all(ge), any(eq), all(notEqual(x, y)));
    o[i * 2u + 1u] = mix(x, y, lt) + ivec4(greaterThanEqual(x, ivec4(0)));
}
