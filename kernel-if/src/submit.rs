//! One submission of command buffers to a GPU queue.

use crate::bo::Bo;
use crate::error::{Error, Result};
use crate::syncobj::SyncPoint;

/// A submit queue (an msm submitqueue id).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct QueueId(pub u32);

/// A submit's completion: the queue's fence sequence number. Seqnos are 32
/// bits and wrap, as the msm kernel's do; compare them with [`seqno_passed`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fence {
    pub queue: QueueId,
    pub seqno: u32,
}

/// Whether seqno `done` is at or after `wanted`, allowing for wrap-around
/// (the two are less than 2^31 submits apart).
pub fn seqno_passed(done: u32, wanted: u32) -> bool {
    done.wrapping_sub(wanted) as i32 >= 0
}

/// A command stream for the CP to execute as an IB1: `dwords` dwords at byte
/// `offset` in `bo`.
#[derive(Clone, Copy, Debug)]
pub struct CommandBuffer<'a> {
    pub bo: &'a Bo,
    pub offset: u64,
    pub dwords: u32,
}

impl CommandBuffer<'_> {
    /// The GPU address of the first dword.
    pub fn iova(&self) -> u64 {
        self.bo.iova() + self.offset
    }
}

/// A BO the submit's commands use, and how.
#[derive(Clone, Copy, Debug)]
pub struct BoUse<'a> {
    pub bo: &'a Bo,
    /// The GPU writes it (the kernel orders CPU access against it).
    pub write: bool,
    /// Include it in a GPU crash dump (msm's devcoredump).
    pub dump: bool,
}

impl<'a> BoUse<'a> {
    pub fn read(bo: &'a Bo) -> Self {
        Self {
            bo,
            write: false,
            dump: false,
        }
    }

    pub fn write(bo: &'a Bo) -> Self {
        Self {
            bo,
            write: true,
            dump: false,
        }
    }
}

/// Everything one submit hands the GPU: the queue does not start `commands`
/// before every `waits` point is signalled, and signals every `signals`
/// point once they are done. Command buffers' own BOs need not be listed in
/// `bos`; every other BO the commands touch must be.
#[derive(Clone, Copy, Debug)]
pub struct Submit<'a> {
    pub queue: QueueId,
    pub commands: &'a [CommandBuffer<'a>],
    pub bos: &'a [BoUse<'a>],
    pub waits: &'a [SyncPoint],
    pub signals: &'a [SyncPoint],
}

impl Submit<'_> {
    /// Checks what every back end requires of the command buffers: at least
    /// one dword each, dword-aligned, inside their BO.
    pub fn validate_commands(&self) -> Result<()> {
        for (i, cmd) in self.commands.iter().enumerate() {
            let bytes = u64::from(cmd.dwords) * 4;
            let inside = cmd
                .offset
                .checked_add(bytes)
                .is_some_and(|end| end <= cmd.bo.size());
            if cmd.dwords == 0 || cmd.offset % 4 != 0 || !inside {
                return Err(Error::InvalidArgument(format!(
                    "command buffer {i}: {} dwords at offset {:#x} of BO {} ({:#x} bytes) \
                     is empty, unaligned or outside the BO",
                    cmd.dwords,
                    cmd.offset,
                    cmd.bo.handle(),
                    cmd.bo.size()
                )));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seqnos_compare_across_the_wrap() {
        assert!(seqno_passed(5, 5));
        assert!(seqno_passed(6, 5));
        assert!(!seqno_passed(4, 5));
        assert!(seqno_passed(2, u32::MAX - 1));
        assert!(!seqno_passed(u32::MAX - 1, 2));
    }
}
