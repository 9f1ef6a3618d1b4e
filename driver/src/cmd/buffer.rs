//! `VkCommandBuffer`: its life cycle (initial, recording, executable), the
//! state recorded commands depend on, and the error a failed command leaves
//! for `vkEndCommandBuffer` to return (commands themselves return nothing).

use std::any::Any;
use std::sync::Arc;

use ash::vk;
use parking_lot::Mutex;

use super::breadcrumb::leaves_breadcrumb;
use super::cache::{self, CacheOps};
use super::dispatch::ComputeState;
use super::draw::GraphicsState;
use super::init_state;
use super::packets::PacketWriter;
use super::pass::{PassPiece, PassRecording};
use super::secondary::InheritedPass;
use super::stream::{CommandStream, Ib};
use super::upload::UploadBuffer;
use crate::breadcrumbs::Crumb;
use crate::device::Device;
use crate::error::VkResult;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Primary,
    Secondary,
}

/// A part of what a command buffer submits: IBs, or a piece of a dynamic
/// rendering pass suspended or resumed across command buffers, which the
/// submit renders with the rest of its chain (`super::pass_chain`).
#[derive(Clone)]
pub enum Segment {
    /// IBs, and whether a render pass is rendered in them (which no
    /// suspended pass may have between its pieces).
    Ibs {
        ibs: Vec<Ib>,
        renders_pass: bool,
    },
    Piece(Arc<PassPiece>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lifecycle {
    Initial,
    Recording,
    Executable,
}

/// Everything a command buffer holds while it records and after.
pub struct Recording {
    pub device: Arc<Device>,
    pub level: Level,
    pub cs: CommandStream,
    pub upload: UploadBuffer,
    pub compute: ComputeState,
    pub graphics: GraphicsState,
    /// Cache operations owed before the next GPU work that depends on
    /// earlier work (barriers accumulate here, dispatches and copies emit
    /// them), as Turnip defers its flush bits.
    pub pending: CacheOps,
    /// Objects the recorded commands use, kept alive while the buffer is.
    pub keep: Vec<Arc<dyn Any + Send + Sync>>,
    /// The breadcrumbs a submit passes, executed secondaries' included
    /// (none unless breadcrumbs are on).
    pub crumbs: Vec<Crumb>,
    /// How many of them this buffer's own commands left.
    pub own_crumbs: u32,
    /// The render pass being recorded, if any.
    pub pass: Option<Box<PassRecording>>,
    /// The render pass a secondary continues (RENDER_PASS_CONTINUE).
    pub inherited: Option<InheritedPass>,
    /// The availability words of queries ended in the render pass, written
    /// once the pass is rendered (see cmd/query.rs).
    pub owed_availability: Vec<u64>,
    /// The streams of ended passes (their chunks are the buffer's IBs),
    /// and those a reset freed for the next passes.
    pub spent_pass_streams: Vec<CommandStream>,
    pub spare_pass_streams: Vec<CommandStream>,
    /// What the buffer submits, closed so far (the open stream follows),
    /// and whether a render pass was rendered since the last segment.
    pub segments: Vec<Segment>,
    pub renders_pass: bool,
    lifecycle: Lifecycle,
    error: Option<vk::Result>,
    /// The start-of-buffer state, built at the first begin (it depends on
    /// the device alone).
    init: Option<PacketWriter>,
}

impl Recording {
    /// Emits the cache operations barriers left pending.
    #[inline]
    pub fn flush_pending(&mut self) -> VkResult<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let mut ops = std::mem::take(&mut self.pending);
        if self.device.debug.flushall && !ops.is_empty() {
            ops = CacheOps::all();
        }
        self.emit_cache_ops(ops)
    }

    pub fn emit_cache_ops(&mut self, ops: CacheOps) -> VkResult<()> {
        if ops.is_empty() {
            return Ok(());
        }
        let mut w = PacketWriter::new(self.device.gpu.chip());
        cache::emit(&mut w, ops, self.device.internal.scratch_iova())?;
        self.cs.append(&w)
    }

    /// Keeps `object` alive as long as the recorded commands are.
    pub fn keep<T: Any + Send + Sync>(&mut self, object: Arc<T>) {
        self.keep.push(object);
    }
}

pub struct CommandBuffer {
    pub device: Arc<Device>,
    pub level: Level,
    rec: Mutex<Recording>,
}

impl CommandBuffer {
    pub(crate) fn new(device: &Arc<Device>, level: Level) -> CommandBuffer {
        CommandBuffer {
            device: device.clone(),
            level,
            rec: Mutex::new(Recording {
                device: device.clone(),
                level,
                cs: CommandStream::new(device),
                upload: UploadBuffer::new(device),
                compute: ComputeState::default(),
                graphics: GraphicsState::default(),
                pending: CacheOps::default(),
                keep: Vec::new(),
                crumbs: Vec::new(),
                own_crumbs: 0,
                pass: None,
                inherited: None,
                owed_availability: Vec::new(),
                spent_pass_streams: Vec::new(),
                spare_pass_streams: Vec::new(),
                segments: Vec::new(),
                renders_pass: false,
                lifecycle: Lifecycle::Initial,
                error: None,
                init: None,
            }),
        }
    }

    /// `vkBeginCommandBuffer`: an implicit reset, then the state every
    /// command buffer starts from (primaries only: a secondary runs inside
    /// a primary that set it up). A secondary that continues a render pass
    /// is given it (`continues`); a primary never is.
    pub fn begin(&self, continues: Option<InheritedPass>) -> VkResult<()> {
        let mut rec = self.rec.lock();
        Self::reset_locked(&mut rec);
        if let Some(c) = &continues {
            if c.subpass as usize >= c.pass.desc.subpasses.len() {
                eprintln!("parsnip: vkBeginCommandBuffer: the inherited subpass is not the pass's");
                return Err(vk::Result::ERROR_UNKNOWN);
            }
        }
        rec.inherited = if rec.level == Level::Secondary {
            continues
        } else {
            None
        };
        rec.lifecycle = Lifecycle::Recording;
        if rec.level == Level::Primary {
            let rec = &mut *rec;
            let init = match &rec.init {
                Some(init) => init,
                None => rec.init.insert(init_state::packets(&self.device)?),
            };
            rec.cs.append(init)?;
        }
        Ok(())
    }

    /// Runs one recording command. The first error is kept for
    /// `vkEndCommandBuffer`; later commands are still recorded as far as
    /// they can be.
    #[inline]
    pub fn record(&self, command: impl FnOnce(&mut Recording) -> VkResult<()>) {
        let mut rec = self.rec.lock();
        if rec.lifecycle != Lifecycle::Recording {
            rec.error.get_or_insert(vk::Result::ERROR_UNKNOWN);
            return;
        }
        if let Err(e) = command(&mut rec) {
            rec.error.get_or_insert(e);
        }
    }

    /// Runs the Vulkan command `name`, followed by its breadcrumb when
    /// breadcrumbs are on and it leaves one.
    #[inline]
    pub fn record_command(
        &self,
        name: &'static str,
        command: impl FnOnce(&mut Recording) -> VkResult<()>,
    ) {
        if self.device.breadcrumbs.is_none() || !leaves_breadcrumb(name) {
            return self.record(command);
        }
        self.record(|rec| {
            command(rec)?;
            rec.breadcrumb(name)
        });
    }

    /// The breadcrumbs a submit of this buffer passes.
    pub fn crumbs(&self) -> Vec<Crumb> {
        self.rec.lock().crumbs.clone()
    }

    /// `vkEndCommandBuffer`: the error a command met, if any.
    pub fn end(&self) -> VkResult<()> {
        let mut rec = self.rec.lock();
        if rec.lifecycle != Lifecycle::Recording {
            return Err(vk::Result::ERROR_UNKNOWN);
        }
        let result = (|| {
            // A suspended dynamic rendering pass is a piece for the
            // submit; any other pass must have ended.
            rec.hand_over_suspended()?;
            rec.flush_pending()?;
            if rec.level == Level::Primary {
                // What the host or the next submit reads must be in memory
                // when the kernel's fence passes: the UCHE's writes and the
                // 2D engine's, in the CCU.
                rec.emit_cache_ops(CacheOps {
                    flush: true,
                    ccu_flush_color: true,
                    ..Default::default()
                })?;
            }
            rec.cs.finish()
        })();
        match (result, rec.error.take()) {
            (Ok(ibs), None) => {
                let renders_pass = std::mem::take(&mut rec.renders_pass);
                rec.segments.push(Segment::Ibs { ibs, renders_pass });
                rec.lifecycle = Lifecycle::Executable;
                Ok(())
            }
            (Err(e), _) | (Ok(_), Some(e)) => {
                Self::reset_locked(&mut rec);
                Err(e)
            }
        }
    }

    fn reset_locked(rec: &mut Recording) {
        if let Some(pass) = rec.pass.take() {
            // The pass's stream is the one open: the buffer's own comes back.
            let draws = std::mem::replace(&mut rec.cs, (*pass).into_outer());
            rec.spent_pass_streams.push(draws);
        }
        rec.cs.reset();
        for mut s in rec.spent_pass_streams.drain(..) {
            s.reset();
            rec.spare_pass_streams.push(s);
        }
        rec.upload.reset();
        rec.compute.reset();
        rec.graphics.reset();
        rec.pending = CacheOps::default();
        rec.inherited = None;
        rec.owed_availability.clear();
        rec.keep.clear();
        rec.crumbs.clear();
        rec.own_crumbs = 0;
        rec.segments.clear();
        rec.renders_pass = false;
        rec.error = None;
        rec.lifecycle = Lifecycle::Initial;
    }

    /// `vkResetCommandBuffer`.
    pub fn reset(&self) {
        Self::reset_locked(&mut self.rec.lock());
    }

    /// What a submit runs; the buffer must have been ended successfully.
    pub fn segments_for_submit(&self) -> VkResult<Vec<Segment>> {
        let rec = self.rec.lock();
        if rec.lifecycle != Lifecycle::Executable {
            eprintln!("parsnip: vkQueueSubmit: a command buffer is not in the executable state");
            return Err(vk::Result::ERROR_UNKNOWN);
        }
        Ok(rec.segments.clone())
    }

    /// The IBs the buffer runs, for a buffer that holds no piece of a
    /// pass suspended or resumed across command buffers (a secondary
    /// executed by a primary).
    pub fn ibs_for_submit(&self) -> VkResult<Vec<Ib>> {
        let mut ibs = Vec::new();
        for s in self.segments_for_submit()? {
            match s {
                Segment::Ibs { ibs: list, .. } => ibs.extend(list),
                Segment::Piece(_) => {
                    eprintln!(
                        "parsnip: vkCmdExecuteCommands: a secondary whose render pass is \
                         suspended or resumed across command buffers is not supported"
                    );
                    return Err(vk::Result::ERROR_FEATURE_NOT_PRESENT);
                }
            }
        }
        Ok(ibs)
    }

    /// Runs `f` on the recorded state (of an ended secondary, for the
    /// primary executing it).
    pub fn with_recording<T>(&self, f: impl FnOnce(&Recording) -> T) -> T {
        f(&self.rec.lock())
    }
}
