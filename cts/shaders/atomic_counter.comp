#version 450
// Every invocation takes a ticket from one counter; the tickets handed out
// must be exactly 0..N-1, each once, whatever order they were served in.
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Counter { uint counter; };
layout(std430, set = 0, binding = 1) writeonly buffer Out { uint tickets[]; };

void main() {
    tickets[gl_GlobalInvocationID.x] = atomicAdd(counter, 1u);
}
