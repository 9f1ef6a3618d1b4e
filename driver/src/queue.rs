//! `VkQueue`: one kernel submit queue. Each batch of a submit is one kernel
//! submit: its command buffers' IBs in order, its semaphore waits and
//! signals as sync points, every live BO of the device in its BO list, and
//! the fence's point on the last one.

use parsnip_hw_state::PacketSink as _;
use std::sync::{Arc, Weak};

use ash::vk;
use parking_lot::Mutex;
use parsnip_kernel_if::{
    BoUse, CommandBuffer as KernelIb, Deadline, Fence as KernelFence, QueueId, Submit, SyncPoint,
};
use parsnip_registers::pm4::Opcode;

use crate::cmd::buffer::CommandBuffer;
use crate::cmd::packets::PacketWriter;
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

    /// `vkQueueSubmit` / `vkQueueSubmit2`.
    pub fn submit(&self, batches: &[SubmitBatch], fence: Option<&Arc<Fence>>) -> VkResult<()> {
        let device = self.device()?;
        let count = batches.len().max(usize::from(fence.is_some()));
        for i in 0..count {
            let empty = SubmitBatch::default();
            let batch = batches.get(i).unwrap_or(&empty);
            let mut ibs = Vec::new();
            for cmd in &batch.command_buffers {
                ibs.extend(cmd.ibs_for_submit()?);
            }
            if ibs.is_empty() {
                ibs.push(self.empty_ib(&device)?);
            }
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
            match &device.breadcrumbs {
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
                    })?;
                }
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
    ) -> VkResult<()> {
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
        Ok(())
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
        device
            .kernel
            .status()
            .map_err(|e| device.kernel_error("vkQueueWaitIdle", e))
    }
}
