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
    /// Caches over this one (UCHE's: the CCU's parts), with their names:
    /// a read through this cache of bytes one of them holds newer is
    /// stale, and is noted in `stale`.
    above: std::sync::OnceLock<Vec<(std::sync::Weak<AddressSpace>, &'static str)>>,
    /// The first stale read since it was last taken: address and the
    /// name of the cache that holds the newer bytes.
    stale: Mutex<Option<(u64, &'static str)>>,
}

impl CacheLines {
    pub fn new(under: Arc<AddressSpace>) -> Self {
        Self {
            under,
            lines: Mutex::new(BTreeMap::new()),
            above: Default::default(),
            stale: Mutex::new(None),
        }
    }

    /// Names the caches over this one, whose newer bytes make a read
    /// through this one stale.
    pub fn set_above(&self, above: Vec<(std::sync::Weak<AddressSpace>, &'static str)>) {
        let _ = self.above.set(above);
    }

    /// The first stale read noted since the last call.
    pub fn take_stale(&self) -> Option<(u64, &'static str)> {
        self.stale.lock().take()
    }

    /// Reads the memory under a cache: through a cache under it without
    /// the stale check (the cache over it is the reader).
    fn read_under(&self, iova: u64, out: &mut [u8]) -> Result<(), Fault> {
        match self.under.cache() {
            Some(c) => c.read_lines(iova, out),
            None => self.under.read(iova, out),
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

    /// Reads through the cache, noting a read of bytes a cache over it
    /// holds newer.
    pub fn read(&self, iova: u64, out: &mut [u8]) -> Result<(), Fault> {
        self.read_lines(iova, out)?;
        if let Some(above) = self.above.get() {
            for (cache, name) in above {
                let Some(view) = cache.upgrade() else {
                    continue;
                };
                let Some(c) = view.cache() else { continue };
                if let Some(at) = c.first_difference_from(iova, out) {
                    self.stale.lock().get_or_insert((at, name));
                }
            }
        }
        Ok(())
    }

    fn read_lines(&self, iova: u64, out: &mut [u8]) -> Result<(), Fault> {
        self.read_under(iova, out)?;
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
                    if self.read_under(line, &mut fill).is_err() {
                        // A line at a buffer's edge: its mapped bytes.
                        for (i, b) in fill.iter_mut().enumerate() {
                            let mut one = [0u8];
                            if self.read_under(line + i as u64, &mut one).is_ok() {
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
        let mut current = vec![0u8; len];
        memory.read(iova, &mut current).ok()?;
        self.first_difference_from(iova, &current)
    }

    /// The first address of `iova..iova+current.len()` where this cache
    /// holds a value other than `current`'s.
    fn first_difference_from(&self, iova: u64, current: &[u8]) -> Option<u64> {
        let lines = self.lines.lock();
        for (line, at, r) in Self::pieces(iova, current.len()) {
            let Some(data) = lines.get(&line) else {
                continue;
            };
            if let Some(i) = r.clone().find(|&i| current[i] != data[at + i - r.start]) {
                return Some(iova + i as u64);
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
