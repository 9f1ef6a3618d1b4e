//! Recording command buffers and submitting them.

use super::memory::Buffer;
use super::pipelines::ComputePipeline;
use super::{Harness, WAIT_TIMEOUT_NS};
use crate::case::{OrStop, Stop};
use ash::vk;

/// A memory dependency for `vkCmdPipelineBarrier`: what must finish and be
/// made available, and what waits and needs it visible.
#[derive(Clone, Copy, Debug)]
pub struct Dependency {
    pub src_stage: vk::PipelineStageFlags,
    pub src_access: vk::AccessFlags,
    pub dst_stage: vk::PipelineStageFlags,
    pub dst_access: vk::AccessFlags,
}

const COMPUTE: vk::PipelineStageFlags = vk::PipelineStageFlags::COMPUTE_SHADER;
const TRANSFER: vk::PipelineStageFlags = vk::PipelineStageFlags::TRANSFER;
const SHADER_RW: vk::AccessFlags = vk::AccessFlags::from_raw(
    vk::AccessFlags::SHADER_READ.as_raw() | vk::AccessFlags::SHADER_WRITE.as_raw(),
);
const TRANSFER_RW: vk::AccessFlags = vk::AccessFlags::from_raw(
    vk::AccessFlags::TRANSFER_READ.as_raw() | vk::AccessFlags::TRANSFER_WRITE.as_raw(),
);

impl Dependency {
    /// A dispatch's writes, read or overwritten by a later dispatch.
    pub const COMPUTE_TO_COMPUTE: Dependency =
        Dependency::new(COMPUTE, vk::AccessFlags::SHADER_WRITE, COMPUTE, SHADER_RW);
    /// A dispatch's reads, before a later dispatch overwrites what they read
    /// (write after read: an execution dependency is enough).
    pub const COMPUTE_READ_TO_COMPUTE_WRITE: Dependency = Dependency::new(
        COMPUTE,
        vk::AccessFlags::empty(),
        COMPUTE,
        vk::AccessFlags::empty(),
    );
    /// A dispatch's writes, read or overwritten by a later copy, fill or update.
    pub const COMPUTE_TO_TRANSFER: Dependency = Dependency::new(
        COMPUTE,
        vk::AccessFlags::SHADER_WRITE,
        TRANSFER,
        TRANSFER_RW,
    );
    /// A dispatch's writes, read as the arguments of an indirect dispatch.
    pub const COMPUTE_TO_INDIRECT: Dependency = Dependency::new(
        COMPUTE,
        vk::AccessFlags::SHADER_WRITE,
        vk::PipelineStageFlags::DRAW_INDIRECT,
        vk::AccessFlags::INDIRECT_COMMAND_READ,
    );
    /// A copy's, fill's or update's writes, read by a later dispatch.
    pub const TRANSFER_TO_COMPUTE: Dependency = Dependency::new(
        TRANSFER,
        vk::AccessFlags::TRANSFER_WRITE,
        COMPUTE,
        SHADER_RW,
    );
    /// A transfer's writes, read or overwritten by a later transfer.
    pub const TRANSFER_TO_TRANSFER: Dependency = Dependency::new(
        TRANSFER,
        vk::AccessFlags::TRANSFER_WRITE,
        TRANSFER,
        TRANSFER_RW,
    );
    /// Everything dispatches and transfers wrote, read by the host after the
    /// submission's fence.
    pub const TO_HOST: Dependency = Dependency::new(
        vk::PipelineStageFlags::from_raw(COMPUTE.as_raw() | TRANSFER.as_raw()),
        vk::AccessFlags::from_raw(
            vk::AccessFlags::SHADER_WRITE.as_raw() | vk::AccessFlags::TRANSFER_WRITE.as_raw(),
        ),
        vk::PipelineStageFlags::HOST,
        vk::AccessFlags::HOST_READ,
    );

    pub const fn new(
        src_stage: vk::PipelineStageFlags,
        src_access: vk::AccessFlags,
        dst_stage: vk::PipelineStageFlags,
        dst_access: vk::AccessFlags,
    ) -> Dependency {
        Dependency {
            src_stage,
            src_access,
            dst_stage,
            dst_access,
        }
    }
}

/// A command buffer being recorded. Its methods record one command each;
/// the handles they take come from the harness, which keeps them alive.
pub struct Recorder<'h> {
    device: &'h ash::Device,
    cmd: vk::CommandBuffer,
}

impl<'h> Recorder<'h> {
    /// A recorder of `cmd`, which is recording.
    pub(super) fn of(device: &'h ash::Device, cmd: vk::CommandBuffer) -> Recorder<'h> {
        Recorder { device, cmd }
    }
}

impl Recorder<'_> {
    /// The command buffer, for commands the recorder has no method for.
    pub fn command_buffer(&self) -> vk::CommandBuffer {
        self.cmd
    }

    pub fn device(&self) -> &ash::Device {
        self.device
    }

    /// Binds `pipeline` and `sets` as sets 0, 1, ...
    pub fn bind(&self, pipeline: &ComputePipeline, sets: &[vk::DescriptorSet]) {
        self.bind_with_offsets(pipeline, sets, &[]);
    }

    /// As [`Recorder::bind`], with the dynamic offsets of dynamic buffers.
    pub fn bind_with_offsets(
        &self,
        pipeline: &ComputePipeline,
        sets: &[vk::DescriptorSet],
        dynamic_offsets: &[u32],
    ) {
        // SAFETY: the command buffer is recording; the pipeline, its layout
        // and the sets are alive (owned by the harness).
        unsafe {
            self.device.cmd_bind_pipeline(
                self.cmd,
                vk::PipelineBindPoint::COMPUTE,
                pipeline.pipeline,
            );
            if !sets.is_empty() {
                self.device.cmd_bind_descriptor_sets(
                    self.cmd,
                    vk::PipelineBindPoint::COMPUTE,
                    pipeline.layout,
                    0,
                    sets,
                    dynamic_offsets,
                );
            }
        }
    }

    /// Binds `sets` as sets `first`, `first + 1`, ... of `pipeline`'s
    /// layout, leaving the other sets bound as they were.
    pub fn bind_sets(&self, pipeline: &ComputePipeline, first: u32, sets: &[vk::DescriptorSet]) {
        // SAFETY: as for `bind`.
        unsafe {
            self.device.cmd_bind_descriptor_sets(
                self.cmd,
                vk::PipelineBindPoint::COMPUTE,
                pipeline.layout,
                first,
                sets,
                &[],
            )
        };
    }

    pub fn push_constants(&self, pipeline: &ComputePipeline, offset: u32, bytes: &[u8]) {
        // SAFETY: as for `bind`.
        unsafe {
            self.device.cmd_push_constants(
                self.cmd,
                pipeline.layout,
                vk::ShaderStageFlags::COMPUTE,
                offset,
                bytes,
            )
        };
    }

    pub fn dispatch(&self, x: u32, y: u32, z: u32) {
        // SAFETY: the command buffer is recording.
        unsafe { self.device.cmd_dispatch(self.cmd, x, y, z) };
    }

    /// `vkCmdDispatchBase` (Vulkan 1.1); check `caps().dispatch_base` first.
    pub fn dispatch_base(&self, base: [u32; 3], count: [u32; 3]) {
        // SAFETY: the command buffer is recording.
        unsafe {
            self.device.cmd_dispatch_base(
                self.cmd, base[0], base[1], base[2], count[0], count[1], count[2],
            )
        };
    }

    pub fn dispatch_indirect(&self, arguments: &Buffer, offset: u64) {
        // SAFETY: the command buffer is recording; the buffer is alive.
        unsafe {
            self.device
                .cmd_dispatch_indirect(self.cmd, arguments.handle, offset)
        };
    }

    /// A global memory barrier.
    pub fn barrier(&self, dependency: Dependency) {
        let barrier = [vk::MemoryBarrier::default()
            .src_access_mask(dependency.src_access)
            .dst_access_mask(dependency.dst_access)];
        // SAFETY: the command buffer is recording.
        unsafe {
            self.device.cmd_pipeline_barrier(
                self.cmd,
                dependency.src_stage,
                dependency.dst_stage,
                vk::DependencyFlags::empty(),
                &barrier,
                &[],
                &[],
            )
        };
    }

    /// A barrier on `size` bytes of one buffer from `offset`.
    pub fn buffer_barrier(&self, dependency: Dependency, buffer: &Buffer, offset: u64, size: u64) {
        let barrier = [vk::BufferMemoryBarrier::default()
            .src_access_mask(dependency.src_access)
            .dst_access_mask(dependency.dst_access)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .buffer(buffer.handle)
            .offset(offset)
            .size(size)];
        // SAFETY: the command buffer is recording; the buffer is alive.
        unsafe {
            self.device.cmd_pipeline_barrier(
                self.cmd,
                dependency.src_stage,
                dependency.dst_stage,
                vk::DependencyFlags::empty(),
                &[],
                &barrier,
                &[],
            )
        };
    }

    pub fn copy(&self, src: &Buffer, dst: &Buffer, regions: &[vk::BufferCopy]) {
        // SAFETY: the command buffer is recording; both buffers are alive.
        unsafe {
            self.device
                .cmd_copy_buffer(self.cmd, src.handle, dst.handle, regions)
        };
    }

    pub fn fill(&self, buffer: &Buffer, offset: u64, size: u64, value: u32) {
        // SAFETY: the command buffer is recording; the buffer is alive.
        unsafe {
            self.device
                .cmd_fill_buffer(self.cmd, buffer.handle, offset, size, value)
        };
    }

    pub fn update(&self, buffer: &Buffer, offset: u64, bytes: &[u8]) {
        // SAFETY: the command buffer is recording; the buffer is alive.
        unsafe {
            self.device
                .cmd_update_buffer(self.cmd, buffer.handle, offset, bytes)
        };
    }
}

/// One `VkSubmitInfo`: command buffers, semaphores to wait for (with the
/// stage that waits) and semaphores to signal. Values matter for timeline
/// semaphores and are ignored for binary ones.
#[derive(Clone, Copy, Default)]
pub struct Submission<'a> {
    pub commands: &'a [vk::CommandBuffer],
    pub waits: &'a [(vk::Semaphore, u64, vk::PipelineStageFlags)],
    pub signals: &'a [(vk::Semaphore, u64)],
}

impl Harness {
    /// A primary command buffer recorded by `body`, ready to submit (and
    /// resubmit: it is not one-time-submit).
    pub fn record(&mut self, body: impl FnOnce(&Recorder<'_>)) -> Result<vk::CommandBuffer, Stop> {
        let alloc = vk::CommandBufferAllocateInfo::default()
            .command_pool(self.command_pool)
            .level(vk::CommandBufferLevel::PRIMARY)
            .command_buffer_count(1);
        // SAFETY: the pool is alive and used from this thread only; command
        // buffers are freed with it at tear-down.
        let cmd = unsafe { self.device.allocate_command_buffers(&alloc) }
            .or_stop("vkAllocateCommandBuffers")?[0];
        // SAFETY: a fresh command buffer from this device.
        unsafe {
            self.device
                .begin_command_buffer(cmd, &vk::CommandBufferBeginInfo::default())
        }
        .or_stop("vkBeginCommandBuffer")?;
        body(&Recorder {
            device: &self.device,
            cmd,
        });
        // SAFETY: the command buffer is recording.
        unsafe { self.device.end_command_buffer(cmd) }.or_stop("vkEndCommandBuffer")?;
        Ok(cmd)
    }

    /// `vkQueueSubmit` of `submissions` with `fence` (may be null).
    pub fn submit(&self, submissions: &[Submission<'_>], fence: vk::Fence) -> Result<(), Stop> {
        struct Parts {
            wait_semaphores: Vec<vk::Semaphore>,
            wait_values: Vec<u64>,
            wait_stages: Vec<vk::PipelineStageFlags>,
            signal_semaphores: Vec<vk::Semaphore>,
            signal_values: Vec<u64>,
        }
        let parts: Vec<Parts> = submissions
            .iter()
            .map(|s| Parts {
                wait_semaphores: s.waits.iter().map(|w| w.0).collect(),
                wait_values: s.waits.iter().map(|w| w.1).collect(),
                wait_stages: s.waits.iter().map(|w| w.2).collect(),
                signal_semaphores: s.signals.iter().map(|w| w.0).collect(),
                signal_values: s.signals.iter().map(|w| w.1).collect(),
            })
            .collect();
        let mut timeline_infos: Vec<_> = parts
            .iter()
            .map(|p| {
                vk::TimelineSemaphoreSubmitInfo::default()
                    .wait_semaphore_values(&p.wait_values)
                    .signal_semaphore_values(&p.signal_values)
            })
            .collect();
        let with_values = self.caps.timeline_semaphore;
        let infos: Vec<_> = submissions
            .iter()
            .zip(&parts)
            .zip(timeline_infos.iter_mut())
            .map(|((s, p), timeline)| {
                let info = vk::SubmitInfo::default()
                    .command_buffers(s.commands)
                    .wait_semaphores(&p.wait_semaphores)
                    .wait_dst_stage_mask(&p.wait_stages)
                    .signal_semaphores(&p.signal_semaphores);
                if with_values {
                    info.push_next(timeline)
                } else {
                    info
                }
            })
            .collect();
        // SAFETY: every command buffer, semaphore and the fence are alive
        // and owned by the harness; the arrays outlive the call.
        unsafe { self.device.queue_submit(self.queue, &infos, fence) }.or_stop("vkQueueSubmit")
    }

    /// Waits for `fence`, calling a wait past [`WAIT_TIMEOUT_NS`] a hang.
    pub fn wait_for(&self, fence: vk::Fence) -> Result<(), Stop> {
        // SAFETY: the fence is alive.
        match unsafe { self.device.wait_for_fences(&[fence], true, WAIT_TIMEOUT_NS) } {
            Ok(()) => Ok(()),
            Err(vk::Result::TIMEOUT) => Err(Stop::Error(format!(
                "the fence was not signalled within {} s: the device hangs",
                WAIT_TIMEOUT_NS / 1_000_000_000
            ))),
            Err(e) => Err(Stop::Error(format!("vkWaitForFences returned {e:?}"))),
        }
    }

    /// Submits `commands` in one batch and waits for them to complete.
    pub fn submit_and_wait(&mut self, commands: &[vk::CommandBuffer]) -> Result<(), Stop> {
        let fence = self.fence(false)?;
        self.submit(
            &[Submission {
                commands,
                ..Default::default()
            }],
            fence,
        )?;
        self.wait_for(fence)
    }

    /// Binds `pipeline` and `sets`, dispatches `groups`, makes the writes
    /// visible to the host, submits and waits: a case's single dispatch.
    pub fn dispatch_and_wait(
        &mut self,
        pipeline: &ComputePipeline,
        sets: &[vk::DescriptorSet],
        groups: [u32; 3],
    ) -> Result<(), Stop> {
        self.run(|r| {
            r.bind(pipeline, sets);
            r.dispatch(groups[0], groups[1], groups[2]);
            r.barrier(Dependency::TO_HOST);
        })
    }

    /// Records a command buffer with `body`, submits it and waits for it.
    pub fn run(&mut self, body: impl FnOnce(&Recorder<'_>)) -> Result<(), Stop> {
        let cmd = self.record(body)?;
        self.submit_and_wait(&[cmd])
    }
}
