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

    /// Work that comes between the pieces of an open chain, rendering a
    /// pass if `renders_pass`: no other render pass may.
    pub fn between(&self, renders_pass: bool) -> VkResult<()> {
        if renders_pass && !self.pieces.is_empty() {
            return fail("another render pass comes between a suspended pass and its resume");
        }
        Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cmd::buffer::Segment;
    use crate::image::view::ImageView;
    use crate::queue::SubmitBatch;
    use crate::rendering::{RenderingAttachment, RenderingDesc};

    /// A one-layer view of level 0 of a 64x32 RGBA8 image.
    fn color_view() -> Arc<ImageView> {
        crate::framebuffer::tests::view(vk::Format::R8G8B8A8_UNORM, 0, 1, 1)
    }

    /// Rendering into `view` with `flags`, its whole 64x32 loaded and
    /// stored.
    fn rendering(view: &Arc<ImageView>, flags: vk::RenderingFlags) -> RenderingDesc {
        RenderingDesc {
            flags,
            area: vk::Rect2D {
                offset: vk::Offset2D { x: 0, y: 0 },
                extent: vk::Extent2D {
                    width: 64,
                    height: 32,
                },
            },
            layers: 1,
            view_mask: 0,
            colors: vec![Some(RenderingAttachment {
                view: view.clone(),
                layout: vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
                load_op: vk::AttachmentLoadOp::LOAD,
                store_op: vk::AttachmentStoreOp::STORE,
                clear: vk::ClearValue::default(),
                resolve: None,
            })],
            depth: None,
            stencil: None,
        }
    }

    /// A primary command buffer beginning and ending a rendering of each
    /// of `flags` in turn; its `vkEndCommandBuffer` result.
    fn recorded(
        device: &Arc<Device>,
        view: &Arc<ImageView>,
        flags: &[vk::RenderingFlags],
    ) -> (Arc<CommandBuffer>, VkResult<()>) {
        let cmd = Arc::new(CommandBuffer::new(device, Level::Primary));
        cmd.begin(None).unwrap();
        for &f in flags {
            cmd.record(|rec| rec.begin_rendering(&rendering(view, f)));
            cmd.record(|rec| rec.end_rendering());
        }
        let ended = cmd.end();
        (cmd, ended)
    }

    fn batch(command_buffers: Vec<Arc<CommandBuffer>>) -> SubmitBatch {
        SubmitBatch {
            command_buffers,
            ..Default::default()
        }
    }

    #[test]
    fn chains_are_resumed_and_ended_within_their_batch_or_the_submit_fails() {
        let device = crate::device::tests::null_device("a660");
        let queue = device.queue(0, 0).unwrap();
        let view = color_view();
        let other_view = color_view();
        let none = vk::RenderingFlags::empty();
        let suspends = vk::RenderingFlags::SUSPENDING;
        let resumes = vk::RenderingFlags::RESUMING;
        let (first, ok) = recorded(&device, &view, &[suspends]);
        ok.unwrap();
        let (middle, ok) = recorded(&device, &view, &[resumes | suspends]);
        ok.unwrap();
        let (last, ok) = recorded(&device, &view, &[resumes]);
        ok.unwrap();
        let (elsewhere, ok) = recorded(&device, &other_view, &[resumes]);
        ok.unwrap();
        let (plain, ok) = recorded(&device, &view, &[none]);
        ok.unwrap();
        let submit = |batches: &[SubmitBatch]| queue.submit(batches, None);
        let unknown = Err(vk::Result::ERROR_UNKNOWN);
        // Whole chains, of two and three command buffers.
        assert_eq!(submit(&[batch(vec![first.clone(), last.clone()])]), Ok(()));
        let three = vec![first.clone(), middle.clone(), last.clone()];
        assert_eq!(submit(&[batch(three)]), Ok(()));
        // Suspended and never resumed; resumed and never suspended;
        // resumed in the next batch; resumed by a pass of other views;
        // another pass between the suspend and the resume.
        assert_eq!(submit(&[batch(vec![first.clone()])]), unknown);
        assert_eq!(submit(&[batch(vec![last.clone()])]), unknown);
        assert_eq!(submit(&[batch(vec![middle.clone()])]), unknown);
        let split = [batch(vec![first.clone()]), batch(vec![last.clone()])];
        assert_eq!(submit(&split), unknown);
        assert_eq!(
            submit(&[batch(vec![first.clone(), elsewhere.clone()])]),
            unknown
        );
        assert_eq!(submit(&[batch(vec![first.clone(), plain, last])]), unknown);
        queue.wait_idle().unwrap();
        // A secondary holding a piece cannot be executed.
        assert_eq!(
            first.ibs_for_submit().err(),
            Some(vk::Result::ERROR_FEATURE_NOT_PRESENT)
        );
    }

    #[test]
    fn the_stream_rendering_a_chain_lives_until_its_submit_completes() {
        let device = crate::device::tests::null_device("a660");
        let queue = device.queue(0, 0).unwrap();
        let view = color_view();
        let (first, _) = recorded(&device, &view, &[vk::RenderingFlags::SUSPENDING]);
        let (last, _) = recorded(&device, &view, &[vk::RenderingFlags::RESUMING]);
        queue.submit(&[batch(vec![first, last])], None).unwrap();
        let held = queue.stitched_in_flight();
        assert_eq!(held.len(), 1, "one chain, one stitched stream");
        assert!(held[0].upgrade().is_some());
        queue.wait_idle().unwrap();
        assert!(queue.stitched_in_flight().is_empty());
        assert!(held[0].upgrade().is_none(), "freed once the submit is done");
    }

    #[test]
    fn within_a_command_buffer_a_suspended_pass_is_resumed_or_its_recording_fails() {
        let device = crate::device::tests::null_device("a740");
        let view = color_view();
        let other_view = color_view();
        let none = vk::RenderingFlags::empty();
        let suspends = vk::RenderingFlags::SUSPENDING;
        let resumes = vk::RenderingFlags::RESUMING;
        // Suspended and resumed within the buffer: one pass, rendered at
        // its end, nothing left for the submit.
        let (cmd, ok) = recorded(&device, &view, &[suspends, resumes | suspends, resumes]);
        ok.unwrap();
        let segments = cmd.segments_for_submit().unwrap();
        assert!(segments.iter().all(|s| matches!(s, Segment::Ibs { .. })));
        // Another pass begun while one is suspended.
        assert!(recorded(&device, &view, &[suspends, none]).1.is_err());
        // Resumed with other attachments.
        let cmd = Arc::new(CommandBuffer::new(&device, Level::Primary));
        cmd.begin(None).unwrap();
        cmd.record(|rec| rec.begin_rendering(&rendering(&view, suspends)));
        cmd.record(|rec| rec.end_rendering());
        cmd.record(|rec| rec.begin_rendering(&rendering(&other_view, resumes)));
        cmd.record(|rec| rec.end_rendering());
        assert_eq!(cmd.end(), Err(vk::Result::ERROR_UNKNOWN));
        // A render pass's end for a rendering, and a rendering's end with
        // none begun.
        let cmd = Arc::new(CommandBuffer::new(&device, Level::Primary));
        cmd.begin(None).unwrap();
        cmd.record(|rec| rec.end_rendering());
        assert_eq!(cmd.end(), Err(vk::Result::ERROR_UNKNOWN));
        let cmd = Arc::new(CommandBuffer::new(&device, Level::Primary));
        cmd.begin(None).unwrap();
        cmd.record(|rec| rec.begin_rendering(&rendering(&view, none)));
        cmd.record(|rec| rec.end_render_pass());
        assert!(cmd.end().is_err());
    }
}
