//! The rule tying each `RD_BUFFER_CONTENTS` to the `RD_GPUADDR` before it,
//! checked alike by the reader and the writer so that nothing the writer
//! accepts is refused when read back.

use crate::error::ErrorKind;

#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ContentsPairing {
    /// File offset and declared size of the last `RD_GPUADDR`.
    last_address: Option<(u64, u32)>,
}

impl ContentsPairing {
    pub(crate) fn address(&mut self, offset: u64, size: u32) {
        self.last_address = Some((offset, size));
    }

    /// Contents belong to the last declared address, whatever came between
    /// (freedreno's decoder pairs them the same way), and must be as long as
    /// it declared.
    pub(crate) fn contents(&self, len: u64) -> Result<(), ErrorKind> {
        match self.last_address {
            None => Err(ErrorKind::ContentsWithoutAddress),
            Some((_, declared)) if u64::from(declared) == len => Ok(()),
            Some((address_offset, declared)) => Err(ErrorKind::ContentsSize {
                len,
                declared,
                address_offset,
            }),
        }
    }
}
