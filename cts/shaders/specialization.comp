#version 450
// Specialization constants of each scalar type, their defaults and values
// derived from them.
layout(local_size_x = 1) in;
layout(constant_id = 3) const int int_value = -7;
layout(constant_id = 4) const uint uint_value = 40u;
layout(constant_id = 5) const float float_value = 1.5;
layout(constant_id = 6) const bool bool_value = false;
layout(constant_id = 7) const uint untouched = 12345u;
const uint derived = uint_value * 2u + 1u;
layout(std430, set = 0, binding = 0) writeonly buffer Out { uint results[]; };

void main() {
    uint table[derived];
    for (uint j = 0u; j < derived; j++)
        table[j] = j * j;
    results[0] = uint(int_value);
    results[1] = uint_value;
    results[2] = floatBitsToUint(float_value);
    results[3] = bool_value ? 1u : 0u;
    results[4] = untouched;
    results[5] = derived;
    results[6] = table[derived - 1u];
}
