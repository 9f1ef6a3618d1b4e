//! A write-back cache over memory, as strict caches model the GPU's
//! caches ([`crate::ccu`], [`crate::uche`]): the 64-byte lines its writes
//! made dirty, read back through it, written to the memory under it when
//! it is flushed. Lines are filled only by writes; the model keeps no
//! clean copies.

use std::collections::BTreeMap;
use std::sync::Arc;

use parking_lot::Mutex;

use crate::memory::{AddressSpace, Fault};

/// Bytes a line.
const LINE: u64 = 64;

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

    /// The first address in `iova..iova+len` where this cache holds a
    /// value that `memory` does not: what a reader of `memory` would get
    /// stale.
    pub fn first_difference(&self, memory: &AddressSpace, iova: u64, len: usize) -> Option<u64> {
        let lines = self.lines.lock();
        for (line, at, r) in Self::pieces(iova, len) {
            let Some(data) = lines.get(&line) else {
                continue;
            };
            let mut old = vec![0u8; r.len()];
            if memory.read(iova + r.start as u64, &mut old).is_err() {
                continue;
            }
            if let Some(i) = (0..r.len()).find(|&i| old[i] != data[at + i]) {
                return Some(iova + (r.start + i) as u64);
            }
        }
        None
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
