#version 450
// target-env: vulkan1.2
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// The Vulkan memory model at device scope: every invocation writes its value,
// releases it and takes a ticket with an acquire-release atomic; the one that
// takes the last ticket sums every work group's values, which the
// release-acquire pairs make visible to it.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Counter { uint tickets; uint total; };
layout(set = 0, binding = 1) buffer Data { uint data[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint n = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    data[i] = i * 7u + 3u;
    memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer,
                  gl_SemanticsRelease | gl_SemanticsMakeAvailable);
    uint ticket = atomicAdd(tickets, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                            gl_SemanticsAcquireRelease | gl_SemanticsMakeAvailable
                                | gl_SemanticsMakeVisible);
    if (ticket == n - 1u) {
        uint sum = 0u;
        for (uint k = 0u; k < n; k++) {
            sum += data[k];
        }
        atomicStore(total, sum, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                    gl_SemanticsRelease | gl_SemanticsMakeAvailable);
    }
}
