//! SPIR-V scopes and memory semantics (the Vulkan memory model's and GLSL's) as the
//! barriers the IR has: what a barrier instruction, or the acquire and release halves of
//! an atomic, ask the hardware to order.
//!
//! The hardware's loads and stores of storage buffers, images and shared memory are
//! coherent at the level they reach (`ldib`/`stib`, `ldg`/`stg`, `ldl`/`stl` go to the
//! caches every fiber of the GPU shares), so availability and visibility operations
//! (MakeAvailable, MakeVisible and the pointer forms) need nothing of their own: only
//! acquire and release ordering becomes a `fence`, and on a7xx an acquire at a scope
//! wider than the work group also invalidates the shader's cache of buffers
//! (`ccinv`), as Mesa's ir3 emits for that case.

use crate::ir::Barrier;

/// SPIR-V `Scope` values (SPIR-V 3.27).
const SCOPE_CROSS_DEVICE: u64 = 0;
const SCOPE_DEVICE: u64 = 1;
const SCOPE_WORKGROUP: u64 = 2;
const SCOPE_QUEUE_FAMILY: u64 = 5;

/// `MemorySemantics` bits (SPIR-V 3.25).
const ACQUIRE: u64 = 0x2;
const RELEASE: u64 = 0x4;
const ACQUIRE_RELEASE: u64 = 0x8;
const SEQUENTIALLY_CONSISTENT: u64 = 0x10;
const UNIFORM_MEMORY: u64 = 0x40;
const WORKGROUP_MEMORY: u64 = 0x100;
const CROSS_WORKGROUP_MEMORY: u64 = 0x200;
const IMAGE_MEMORY: u64 = 0x800;

/// Whether a scope takes in the whole work group or more (what an execution barrier
/// must wait for with `bar`).
fn at_least_workgroup(scope: u64) -> bool {
    matches!(
        scope,
        SCOPE_CROSS_DEVICE | SCOPE_DEVICE | SCOPE_WORKGROUP | SCOPE_QUEUE_FAMILY
    )
}

/// Whether a memory scope reaches other work groups.
fn beyond_workgroup(scope: u64) -> bool {
    matches!(
        scope,
        SCOPE_CROSS_DEVICE | SCOPE_DEVICE | SCOPE_QUEUE_FAMILY
    )
}

/// The storage the access itself touches, for the semantics of an atomic, which order
/// its own storage class whether or not the semantics name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Storage {
    Buffer,
    Shared,
    Other,
}

/// The barrier for semantics `sem` at memory scope `scope` (and execution scope
/// `execution` for OpControlBarrier), or `None` when it orders nothing.
/// `acquire`/`release` say which halves of the ordering to keep (an atomic's release
/// half goes before it and its acquire half after it).
fn barrier(
    execution: Option<u64>,
    scope: u64,
    sem: u64,
    storage: Storage,
    acquire: bool,
    release: bool,
) -> Option<Barrier> {
    let both = sem & (ACQUIRE_RELEASE | SEQUENTIALLY_CONSISTENT) != 0;
    let acq = acquire && (both || sem & ACQUIRE != 0);
    let rel = release && (both || sem & RELEASE != 0);
    let ordered = acq || rel;
    let buffer = sem & (UNIFORM_MEMORY | CROSS_WORKGROUP_MEMORY | IMAGE_MEMORY) != 0
        || storage == Storage::Buffer;
    let shared = sem & WORKGROUP_MEMORY != 0 || storage == Storage::Shared;
    let b = Barrier {
        execution: execution.is_some_and(at_least_workgroup),
        buffer_memory: ordered && buffer,
        shared_memory: ordered && shared,
        device_scope: ordered && beyond_workgroup(scope),
        acquire: acq,
    };
    (b.execution || b.buffer_memory || b.shared_memory).then_some(b)
}

/// OpControlBarrier (`execution` set) or OpMemoryBarrier.
pub(super) fn barrier_instruction(execution: Option<u64>, scope: u64, sem: u64) -> Option<Barrier> {
    barrier(execution, scope, sem, Storage::Other, true, true)
}

/// The barrier before an atomic on `storage`: its semantics' release half.
pub(super) fn before_atomic(scope: u64, sem: u64, storage: Storage) -> Option<Barrier> {
    barrier(None, scope, sem, storage, false, true)
}

/// The barrier after an atomic: its semantics' acquire half.
pub(super) fn after_atomic(scope: u64, sem: u64, storage: Storage) -> Option<Barrier> {
    barrier(None, scope, sem, storage, true, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glsl_barrier_waits_and_orders_shared_memory() {
        // barrier(): OpControlBarrier Workgroup Workgroup AcquireRelease|WorkgroupMemory.
        let b = barrier_instruction(Some(2), 2, 0x108).unwrap();
        assert!(b.execution && b.shared_memory && !b.buffer_memory && !b.device_scope);
    }

    #[test]
    fn semantics_without_ordering_order_nothing() {
        // Relaxed: storage class bits alone make no memory barrier (SPIR-V 3.25).
        assert_eq!(barrier_instruction(None, 1, UNIFORM_MEMORY), None);
        // An execution barrier stays one.
        let b = barrier_instruction(Some(2), 2, 0).unwrap();
        assert!(b.execution && !b.shared_memory && !b.buffer_memory);
        // Subgroup-scoped execution barriers need no `bar`: a wave runs in lockstep.
        assert_eq!(barrier_instruction(Some(3), 3, 0), None);
    }

    #[test]
    fn device_scope_acquire_is_marked_for_the_cache_invalidation() {
        // memoryBarrier(gl_ScopeDevice, Buffer, Acquire|MakeVisible) = 0x4042.
        let b = barrier_instruction(None, 1, 0x4042).unwrap();
        assert!(b.buffer_memory && b.device_scope && b.acquire);
        // At work group scope nothing reaches other work groups.
        let b = barrier_instruction(None, 2, 0x4042).unwrap();
        assert!(!b.device_scope);
    }

    #[test]
    fn an_atomic_splits_its_ordering_around_it() {
        // AcquireRelease|UniformMemory|MakeAvailable|MakeVisible at device scope.
        let sem = 0x6048;
        let before = before_atomic(1, sem, Storage::Buffer).unwrap();
        let after = after_atomic(1, sem, Storage::Buffer).unwrap();
        assert!(!before.acquire && after.acquire && after.device_scope);
        // A release-only atomic store has nothing after it; an acquire load nothing
        // before it.
        assert_eq!(
            after_atomic(1, RELEASE | UNIFORM_MEMORY, Storage::Buffer),
            None
        );
        assert_eq!(before_atomic(1, ACQUIRE, Storage::Shared), None);
        // Relaxed atomics are bare.
        assert_eq!(before_atomic(1, 0, Storage::Buffer), None);
        assert_eq!(after_atomic(1, 0, Storage::Buffer), None);
        // The atomic's own storage is ordered even when the semantics do not name it.
        assert!(
            after_atomic(2, ACQUIRE, Storage::Shared)
                .unwrap()
                .shared_memory
        );
    }
}
