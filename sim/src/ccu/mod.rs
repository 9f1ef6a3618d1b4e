//! The CCU, the RB's colour and depth cache, as strict caches model it
//! ([`crate::options::SimOptions::strict_caches`]): the render backend's
//! writes to targets in memory, and the 2D engine's ("writes through the
//! CCU", adreno_pm4.xml, CP_BLIT), stay in the CCU until an event writes
//! it back into UCHE ([`crate::uche`]), whose own flush reaches memory.
//! The other units read through UCHE, the CP and the host read memory, so
//! a stream that misses a flush between the RB writing a surface and
//! something else reading it reads the stale data the hardware would; in
//! strict mode the CP reports it at the packet whose work read it, naming
//! the address, the cache and the missing event.
//!
//! The hardware's CCU is split into a colour and a depth part (RB_CCU_CNTL
//! sizes them), each flushed by its own events: CCU_FLUSH_COLOR and
//! CCU_FLUSH_DEPTH, their a6xx timestamp forms PC_CCU_FLUSH_COLOR_TS and
//! PC_CCU_FLUSH_DEPTH_TS, and a7xx's CCU_CLEAN_COLOR and CCU_CLEAN_DEPTH
//! (adreno_pm4.xml; Turnip's tu6_emit_flushes uses the a6xx names on a6xx
//! and the CLEAN ones on a7xx). The model keeps each part as the set of
//! 64-byte lines it holds dirty ([`crate::cache_lines`]): the RB reads its
//! own writes back through it (blending, the depth test), a flush writes
//! every dirty line into UCHE and forgets it. Lines are only ever filled
//! by writes, so an invalidate (CCU_INVALIDATE_*), which drops clean lines,
//! has nothing to drop; the model does not keep clean copies that could go
//! stale in the other direction.

use std::sync::Arc;

use crate::memory::{AddressSpace, Fault};

/// The two parts of the CCU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CcuPart {
    Color,
    Depth,
}

/// The CCU's two parts, each a view of memory through its cache.
pub(crate) struct Ccu {
    pub color: Arc<AddressSpace>,
    pub depth: Arc<AddressSpace>,
}

/// The CCU parts' names in reports.
pub(crate) const COLOR_NAME: &str = "the CCU's colour part";
pub(crate) const DEPTH_NAME: &str = "the CCU's depth part";

impl Ccu {
    /// The CCU over `under` (UCHE), which learns of it: a read through
    /// UCHE of bytes the CCU holds newer is stale.
    pub fn new(under: &Arc<AddressSpace>) -> Ccu {
        let color = Arc::new(AddressSpace::cached(Arc::clone(under)));
        let depth = Arc::new(AddressSpace::cached(Arc::clone(under)));
        if let Some(c) = under.cache() {
            c.set_above(vec![
                (Arc::downgrade(&color), COLOR_NAME),
                (Arc::downgrade(&depth), DEPTH_NAME),
            ]);
        }
        Ccu { color, depth }
    }

    pub fn part(&self, part: CcuPart) -> &AddressSpace {
        match part {
            CcuPart::Color => &self.color,
            CcuPart::Depth => &self.depth,
        }
    }

    /// Writes `part` back to memory.
    pub fn flush(&self, part: CcuPart) -> Result<(), Fault> {
        match self.part(part).cache() {
            Some(c) => c.flush(),
            None => Ok(()),
        }
    }
}

/// The CCU parts event `name` writes back.
pub(crate) fn flushed_by(name: &str) -> &'static [CcuPart] {
    match name {
        "CCU_FLUSH_COLOR" | "PC_CCU_FLUSH_COLOR_TS" | "CCU_CLEAN_COLOR" => &[CcuPart::Color],
        "CCU_FLUSH_DEPTH" | "PC_CCU_FLUSH_DEPTH_TS" | "CCU_CLEAN_DEPTH" => &[CcuPart::Depth],
        _ => &[],
    }
}
