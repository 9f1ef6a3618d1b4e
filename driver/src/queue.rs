//! `VkQueue`: one kernel submit queue. Each batch of a submit is one kernel
//! submit: its command buffers' IBs in order, its semaphore waits and
//! signals as sync points, every live BO of the device in its BO list, and
//! the fence's point on the last one.
//!
//! A batch's dynamic rendering passes suspended and resumed across its
//! command buffers are rendered here, each chain as one pass
//! (`cmd::pass_chain`), before any batch is submitted; the streams that
//! renders are the device's, kept by the queue until the kernel fence of
//! their submit has passed.

use parsnip_hw_state::PacketSink as _;
use std::sync::{Arc, Weak};

use ash::vk;
use parking_lot::Mutex;
use parsnip_kernel_if::{
    BoUse, CommandBuffer as KernelIb, Deadline, Fence as KernelFence, QueueId, Submit, SyncPoint,
};
use parsnip_registers::pm4::Opcode;

use crate::cmd::buffer::{CommandBuffer, Segment};
use crate::cmd::packets::PacketWriter;
use crate::cmd::pass_chain::PassChain;
use crate::cmd::stream::Ib;
use crate::device::Device;
use crate::device_bo::{BoKind, DeviceBo};
use crate::error::VkResult;
use crate::sync::fence::Fence;
use crate::sync::semaphore::{Semaphore, SemaphoreKind};

/// A semaphore wait or signal of a batch (`value` for timelines).
#[derive(Clone)]
pub struct SemaphoreOp {
    pub semaphore: Arc<Semaphore>,
    pub value: u64,
}

impl SemaphoreOp {
    /// A wait for value 0 of a timeline is always satisfied (every
    /// timeline starts at 0 or above); the kernel's point 0 would instead
    /// mean a binary payload, so such waits are dropped.
    fn is_trivial(&self) -> bool {
        self.semaphore.kind == SemaphoreKind::Timeline && self.value == 0
    }
}

/// One `VkSubmitInfo` / `VkSubmitInfo2`.
#[derive(Clone, Default)]
pub struct SubmitBatch {
    pub waits: Vec<SemaphoreOp>,
    pub command_buffers: Vec<Arc<CommandBuffer>>,
    pub signals: Vec<SemaphoreOp>,
}

pub struct Queue {
    device: Weak<Device>,
    pub family: u32,
    pub index: u32,
    pub kernel_queue: QueueId,
    /// The last kernel fence submitted, for wait-idle.
    last: Mutex<Option<KernelFence>>,
    /// A one-packet IB for batches with no command buffer (the kernel
    /// submits at least one IB).
    empty_ib: Mutex<Option<Ib>>,
    /// The streams rendering suspended and resumed passes, each kept
    /// until the kernel fence of its submit passes.
    stitched: Mutex<Vec<(KernelFence, Vec<Arc<CommandBuffer>>)>>,
}

impl Queue {
    pub(crate) fn new(
        device: Weak<Device>,
        family: u32,
        index: u32,
        kernel_queue: QueueId,
    ) -> Queue {
        Queue {
            device,
            family,
            index,
            kernel_queue,
            last: Mutex::new(None),
            empty_ib: Mutex::new(None),
            stitched: Mutex::new(Vec::new()),
        }
    }

    fn device(&self) -> VkResult<Arc<Device>> {
        self.device.upgrade().ok_or(vk::Result::ERROR_DEVICE_LOST)
    }

    fn empty_ib(&self, device: &Device) -> VkResult<Ib> {
        let mut slot = self.empty_ib.lock();
        if let Some(ib) = &*slot {
            return Ok(ib.clone());
        }
        let mut w = PacketWriter::new(device.gpu.chip());
        w.packet(Opcode::CP_NOP, &[]);
        let bo: Arc<DeviceBo> = device.allocate_bo(4 * w.len() as u64, BoKind::Commands)?;
        bo.write_dwords(0, &w.dwords)?;
        let ib = Ib {
            bo,
            offset: 0,
            dwords: w.len() as u32,
        };
        *slot = Some(ib.clone());
        Ok(ib)
    }

    /// The IBs of `batch`, its chains of suspended and resumed passes
    /// rendered (their streams' holders added to `stitched`).
    fn batch_ibs(
        &self,
        device: &Arc<Device>,
        batch: &SubmitBatch,
        stitched: &mut Vec<Arc<CommandBuffer>>,
    ) -> VkResult<Vec<Ib>> {
        let mut ibs = Vec::new();
        let mut chain = PassChain::default();
        for cmd in &batch.command_buffers {
            for segment in cmd.segments_for_submit()? {
                match segment {
                    Segment::Ibs {
                        ibs: list,
                        renders_pass,
                    } => {
                        chain.between(renders_pass)?;
                        ibs.extend(list);
                    }
                    Segment::Piece(piece) => {
                        if let Some(pass) = chain.add(device, piece)? {
                            ibs.extend(pass.ibs);
                            stitched.push(pass.holder);
                        }
                    }
                }
            }
        }
        chain.finish()?;
        if ibs.is_empty() {
            ibs.push(self.empty_ib(device)?);
        }
        Ok(ibs)
    }

    /// The stitched streams' holders kept for submits not yet known to
    /// have completed.
    #[cfg(test)]
    pub(crate) fn stitched_in_flight(&self) -> Vec<std::sync::Weak<CommandBuffer>> {
        self.stitched
            .lock()
            .iter()
            .flat_map(|(_, held)| held.iter().map(Arc::downgrade))
            .collect()
    }

    /// Drops the stitched streams whose submits have completed.
    fn release_stitched(&self, device: &Device) {
        self.stitched
            .lock()
            .retain(|(fence, _)| device.kernel.fence_wait(*fence, Deadline::now()).is_err());
    }

    /// `vkQueueSubmit` / `vkQueueSubmit2`.
    pub fn submit(&self, batches: &[SubmitBatch], fence: Option<&Arc<Fence>>) -> VkResult<()> {
        let device = self.device()?;
        self.release_stitched(&device);
        let count = batches.len().max(usize::from(fence.is_some()));
        let empty = SubmitBatch::default();
        // Every batch's IBs first: a broken chain fails the submit whole.
        let mut prepared = Vec::with_capacity(count);
        for i in 0..count {
            let batch = batches.get(i).unwrap_or(&empty);
            let mut stitched = Vec::new();
            let ibs = self.batch_ibs(&device, batch, &mut stitched)?;
            prepared.push((ibs, stitched));
        }
        for (i, (mut ibs, stitched)) in prepared.into_iter().enumerate() {
            let batch = batches.get(i).unwrap_or(&empty);
            let waits: Vec<SyncPoint> = batch
                .waits
                .iter()
                .filter(|w| !w.is_trivial())
                .map(|w| w.semaphore.wait_point(w.value))
                .collect();
            let mut signals: Vec<SyncPoint> = batch
                .signals
                .iter()
                .map(|s| s.semaphore.signal_point(s.value))
                .collect();
            if i + 1 == count {
                if let Some(f) = fence {
                    signals.push(f.point());
                }
            }
            let submitted = match &device.breadcrumbs {
                None => self.submit_ibs(&device, &ibs, &waits, &signals)?,
                Some(b) => {
                    let crumbs = batch
                        .command_buffers
                        .iter()
                        .flat_map(|c| c.crumbs())
                        .collect();
                    b.submit(crumbs, |prologue| {
                        ibs.insert(0, prologue.clone());
                        self.submit_ibs(&device, &ibs, &waits, &signals)
                    })?
                }
            };
            if !stitched.is_empty() {
                self.stitched.lock().push((submitted, stitched));
            }
        }
        Ok(())
    }

    fn submit_ibs(
        &self,
        device: &Device,
        ibs: &[Ib],
        waits: &[SyncPoint],
        signals: &[SyncPoint],
    ) -> VkResult<KernelFence> {
        let live = device.bos.snapshot();
        let bos: Vec<BoUse<'_>> = live
            .iter()
            .filter(|b| b.kind() != BoKind::Commands)
            .map(|b| BoUse {
                bo: b.bo(),
                write: b.kind() != BoKind::Pipeline,
                dump: b.kind() == BoKind::Pipeline,
            })
            .collect();
        let commands: Vec<KernelIb<'_>> = ibs
            .iter()
            .map(|ib| KernelIb {
                bo: ib.bo.bo(),
                offset: ib.offset,
                dwords: ib.dwords,
            })
            .collect();
        if let Some(dump) = &device.rd_dump {
            dump.submit(&live, ibs)?;
        }
        let submit = Submit {
            queue: self.kernel_queue,
            commands: &commands,
            bos: &bos,
            waits,
            signals,
        };
        let fence = device
            .kernel
            .submit(&submit)
            .map_err(|e| device.kernel_error("vkQueueSubmit", e))?;
        *self.last.lock() = Some(fence);
        if device.debug.syncdispatch {
            self.wait_idle()?;
        }
        Ok(fence)
    }

    /// `vkQueueWaitIdle`: waits for the last submit, then reports a lost
    /// device with the back end's report.
    pub fn wait_idle(&self) -> VkResult<()> {
        let last = *self.last.lock();
        let device = self.device()?;
        if let Some(fence) = last {
            device
                .kernel
                .fence_wait(fence, Deadline::Never)
                .map_err(|e| device.kernel_error("vkQueueWaitIdle", e))?;
        }
        self.release_stitched(&device);
        device
            .kernel
            .status()
            .map_err(|e| device.kernel_error("vkQueueWaitIdle", e))
    }
}
