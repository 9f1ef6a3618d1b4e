#version 450
// The last invocation to arrive (a device-scope acquire-release atomic) sums what every
// invocation of every work group wrote before its device-scope release.
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer D { uint data[]; };
layout(set = 0, binding = 1) coherent buffer C { uint counter; uint total; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    data[i] = i * 3u + 1u;
    memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease | gl_SemanticsMakeAvailable);
    uint before = atomicAdd(counter, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease | gl_SemanticsMakeAvailable | gl_SemanticsMakeVisible);
    if (before == gl_NumWorkGroups.x * 64u - 1u) {
        uint s = 0u;
        for (uint k = 0u; k < gl_NumWorkGroups.x * 64u; k++) s += data[k];
        atomicStore(total, s, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
    }
}
