//! A dynamic rendering pass suspended at the end of one command buffer
//! and resumed in the next is one render pass on a tiler, which can be
//! scheduled only once the whole chain is known: at `vkQueueSubmit`.
//!
//! Each command buffer hands its pieces of such passes to the submit
//! (`super::rendering`); the submit walks its batch's command buffers in
//! order, gathers each chain's pieces, and when the last one ends renders
//! them as one pass (`Recording::render_pass_instance`): one sysmem/GMEM
//! decision, one binning pass, the first piece's loads and clears, the
//! pieces' draw streams replayed in order in every bin, one set of stores
//! and resolves. The stream doing that is recorded then, into an internal
//! command buffer that the queue keeps until the submit's fence passes.
//!
//! Vulkan requires every suspended pass of a batch to be resumed later
//! in the same batch, and every resumed one to have been suspended
//! earlier in it, with the same attachments and render area. A chain
//! that breaks those rules fails the submit (`VK_ERROR_UNKNOWN` and a
//! message) before anything is submitted.

use std::sync::Arc;

use ash::vk;

use super::buffer::{CommandBuffer, Level};
use super::pass::PassPiece;
use super::stream::Ib;
use crate::device::Device;
use crate::error::VkResult;

fn fail<T>(what: &str) -> VkResult<T> {
    eprintln!("parsnip: vkQueueSubmit: {what}");
    Err(vk::Result::ERROR_UNKNOWN)
}

/// The pieces of the chain a batch has open.
#[derive(Default)]
pub struct PassChain {
    pieces: Vec<Arc<PassPiece>>,
}

/// A chain rendered: the stream to run in its place and the command
/// buffer holding it (kept until the submit completes).
pub struct StitchedPass {
    pub ibs: Vec<Ib>,
    pub holder: Arc<CommandBuffer>,
}

impl PassChain {
    /// Adds the next piece of the batch; returns the chain rendered when
    /// the piece ends it.
    pub fn add(
        &mut self,
        device: &Arc<Device>,
        piece: Arc<PassPiece>,
    ) -> VkResult<Option<StitchedPass>> {
        match (self.pieces.first(), piece.resumes) {
            (None, true) => {
                return fail(
                    "a command buffer resumes a render pass that no earlier command buffer \
                     of the batch suspended",
                )
            }
            (Some(_), false) => {
                return fail(
                    "a suspended render pass is not resumed before the next render pass \
                     begins",
                )
            }
            (Some(first), true)
                if first.area != piece.area
                    || !first.framebuffer.same_views(&piece.framebuffer) =>
            {
                return fail(
                    "a resumed render pass renders to other attachments or another area than \
                     the one it resumes",
                )
            }
            _ => {}
        }
        let ends = !piece.suspends;
        self.pieces.push(piece);
        if !ends {
            return Ok(None);
        }
        let pieces = std::mem::take(&mut self.pieces);
        stitch(device, &pieces).map(Some)
    }

    /// At the end of the batch: no chain may be left open.
    pub fn finish(&self) -> VkResult<()> {
        if self.pieces.is_empty() {
            Ok(())
        } else {
            fail(
                "a render pass suspended in the batch is not resumed and ended in it \
                 (VUID-VkSubmitInfo-pCommandBuffers-06192)",
            )
        }
    }
}

/// Records the rendering of `pieces` as one pass into a command buffer
/// of its own. It is recorded as a secondary: it needs none of a
/// primary's start-of-buffer state (the primaries around it program it)
/// nor its closing flush.
fn stitch(device: &Arc<Device>, pieces: &[Arc<PassPiece>]) -> VkResult<StitchedPass> {
    let holder = Arc::new(CommandBuffer::new(device, Level::Secondary));
    holder.begin(None)?;
    holder.record(|rec| {
        for p in pieces {
            rec.keep(p.clone());
        }
        let list: Vec<&PassPiece> = pieces.iter().map(|p| &**p).collect();
        rec.render_pass_instance(&list)
    });
    holder.end()?;
    let ibs = holder.ibs_for_submit()?;
    Ok(StitchedPass { ibs, holder })
}
