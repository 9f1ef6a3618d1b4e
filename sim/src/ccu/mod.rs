//! The CCU, the RB's colour and depth cache, as strict caches model it
//! ([`crate::options::SimOptions::strict_caches`]): the render backend's
//! writes to targets in memory stay in the CCU, and memory sees them only
//! when an event writes the cache back. Every other client of memory (the
//! texture unit, shaders, the CP, the 2D and resolve engines, the host)
//! reads memory itself, so a stream that misses the flush between the RB
//! writing a surface and something else reading it reads the stale data
//! the hardware would read.
//!
//! The hardware's CCU is split into a colour and a depth part (RB_CCU_CNTL
//! sizes them), each flushed by its own events: CCU_FLUSH_COLOR and
//! CCU_FLUSH_DEPTH, their a6xx timestamp forms PC_CCU_FLUSH_COLOR_TS and
//! PC_CCU_FLUSH_DEPTH_TS, and a7xx's CCU_CLEAN_COLOR and CCU_CLEAN_DEPTH
//! (adreno_pm4.xml; Turnip's tu6_emit_flushes uses the a6xx names on a6xx
//! and the CLEAN ones on a7xx). The model keeps each part as the set of
//! 64-byte lines it holds dirty, over the GPU's memory: the RB reads its
//! own writes back through it (blending, the depth test), a flush writes
//! every dirty line to memory and forgets it. Lines are only ever filled
//! by writes, so an invalidate (CCU_INVALIDATE_*), which drops clean lines,
//! has nothing to drop; the model does not keep clean copies that could go
//! stale in the other direction.

use std::collections::BTreeMap;
use std::sync::Arc;

use parking_lot::Mutex;

use crate::memory::{AddressSpace, Fault};

/// Bytes a line.
const LINE: u64 = 64;

/// The two parts of the CCU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CcuPart {
    Color,
    Depth,
}

/// Dirty lines over memory.
pub(crate) struct CacheLines {
    pub(crate) under: Arc<AddressSpace>,
    lines: Mutex<BTreeMap<u64, [u8; LINE as usize]>>,
}

impl CacheLines {
    pub fn new(under: Arc<AddressSpace>) -> Self {
        Self {
            under,
            lines: Mutex::new(BTreeMap::new()),
        }
    }

    /// The lines `iova..iova+len` touches, with the range of each within the
    /// line and within the request.
    fn pieces(iova: u64, len: usize) -> impl Iterator<Item = (u64, usize, std::ops::Range<usize>)> {
        let end = iova + len as u64;
        let first = iova / LINE * LINE;
        (first..end).step_by(LINE as usize).map(move |line| {
            let from = iova.max(line);
            let to = end.min(line + LINE);
            (
                line,
                (from - line) as usize,
                (from - iova) as usize..(to - iova) as usize,
            )
        })
    }

    pub fn read(&self, iova: u64, out: &mut [u8]) -> Result<(), Fault> {
        self.under.read(iova, out)?;
        let lines = self.lines.lock();
        for (line, at, r) in Self::pieces(iova, out.len()) {
            if let Some(data) = lines.get(&line) {
                let n = r.len();
                out[r].copy_from_slice(&data[at..at + n]);
            }
        }
        Ok(())
    }

    pub fn write(&self, iova: u64, data: &[u8]) -> Result<(), Fault> {
        if !self.under.is_mapped(iova, data.len() as u64) {
            // The fault memory itself reports.
            return self.under.write(iova, data);
        }
        let mut lines = self.lines.lock();
        for (line, at, r) in Self::pieces(iova, data.len()) {
            let entry = match lines.get_mut(&line) {
                Some(e) => e,
                None => {
                    let mut fill = [0u8; LINE as usize];
                    if self.under.read(line, &mut fill).is_err() {
                        // A line at a buffer's edge: its mapped bytes.
                        for (i, b) in fill.iter_mut().enumerate() {
                            let mut one = [0u8];
                            if self.under.read(line + i as u64, &mut one).is_ok() {
                                *b = one[0];
                            }
                        }
                    }
                    lines.entry(line).or_insert(fill)
                }
            };
            let n = r.len();
            entry[at..at + n].copy_from_slice(&data[r]);
        }
        Ok(())
    }

    /// Writes every dirty line back to memory and forgets it.
    pub fn flush(&self) -> Result<(), Fault> {
        let lines = std::mem::take(&mut *self.lines.lock());
        for (line, data) in lines {
            if self.under.is_mapped(line, LINE) {
                self.under.write(line, &data)?;
            } else {
                // Write back the mapped bytes of a line at a buffer's edge.
                for (i, b) in data.iter().enumerate() {
                    let at = line + i as u64;
                    if self.under.is_mapped(at, 1) {
                        self.under.write(at, &[*b])?;
                    }
                }
            }
        }
        Ok(())
    }
}

/// The CCU's two parts, each a view of memory through its cache.
pub(crate) struct Ccu {
    pub color: AddressSpace,
    pub depth: AddressSpace,
}

impl Ccu {
    pub fn new(memory: &Arc<AddressSpace>) -> Ccu {
        Ccu {
            color: AddressSpace::cached(Arc::clone(memory)),
            depth: AddressSpace::cached(Arc::clone(memory)),
        }
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
