//! UCHE, the GPU's L2 between its units and memory, as strict caches
//! model it ([`crate::options::SimOptions::strict_caches`]): what the
//! shader processor, the resolve engine and the LRZ unit write, and what
//! the CCU over it writes back, stays in UCHE until an event flushes it: CACHE_FLUSH_TS ("Flushes dirty data from UCHE",
//! adreno_pm4.xml) and a7xx's CACHE_FLUSH7 and CACHE_CLEAN (the event
//! Turnip's tu6_emit_flushes uses there). The CP reads and writes memory
//! itself, as does the host, so a CP packet that reads what a shader wrote
//! (an indirect dispatch's group counts, a predicate) without the flush in
//! between reads the stale value the hardware would; strict mode reports
//! it at the packet, naming the address and the missing event.
//!
//! The model's UCHE holds only dirty lines ([`crate::cache_lines`]), so
//! CACHE_INVALIDATE, which drops clean ones, has nothing to drop.

use std::sync::Arc;

use crate::memory::AddressSpace;

/// Memory seen through UCHE.
pub(crate) fn view(memory: &Arc<AddressSpace>) -> Arc<AddressSpace> {
    Arc::new(AddressSpace::cached(Arc::clone(memory)))
}

/// Whether event `name` writes UCHE back.
pub(crate) fn flushed_by(name: &str) -> bool {
    matches!(name, "CACHE_FLUSH_TS" | "CACHE_FLUSH7" | "CACHE_CLEAN")
}
