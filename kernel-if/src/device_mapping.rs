//! A kernel back end's CPU mapping of a BO: made with `mmap` on the device
//! file at the offset the kernel names, on first use, and kept until the
//! BO is freed.

use std::fs::File;
use std::ptr::NonNull;
use std::sync::OnceLock;

use memmap2::{MmapOptions, MmapRaw};

use crate::error::{Error, Result};

#[derive(Default)]
pub struct DeviceMapping {
    map: OnceLock<MmapRaw>,
}

impl DeviceMapping {
    /// The mapping's start, mapping `size` bytes of `file` at the offset
    /// `offset` gives (asked only the first time). `what` names the BO in
    /// errors.
    pub fn get(
        &self,
        file: &File,
        offset: impl FnOnce() -> Result<u64>,
        size: u64,
        what: impl FnOnce() -> String,
    ) -> Result<NonNull<u8>> {
        if let Some(m) = self.map.get() {
            return non_null(m);
        }
        let len = usize::try_from(size)
            .map_err(|_| Error::InvalidArgument(format!("BO of {size:#x} bytes")))?;
        let map = MmapOptions::new()
            .offset(offset()?)
            .len(len)
            .map_raw(file)
            .map_err(|source| Error::Io {
                what: format!("mapping {} ({len:#x} bytes)", what()),
                source,
            })?;
        // Two threads may map at once; the loser's mapping is unmapped here
        // and both return the winner's.
        let _ = self.map.set(map);
        non_null(self.map.get().expect("set above"))
    }

    /// Unmaps it (before the kernel frees the BO).
    pub fn unmap(&mut self) {
        drop(self.map.take());
    }
}

fn non_null(map: &MmapRaw) -> Result<NonNull<u8>> {
    NonNull::new(map.as_mut_ptr()).ok_or_else(|| Error::Io {
        what: "mapping a BO".into(),
        source: std::io::Error::other("mmap returned address 0"),
    })
}
