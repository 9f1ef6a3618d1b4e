//! `vkCmdBeginRendering` and `vkCmdEndRendering`: a dynamic rendering
//! pass is recorded as the one-subpass render pass its info describes
//! (`crate::rendering`), through the same pass recording, tiling and
//! rendering as a `VkRenderPass`'s (`super::pass`).
//!
//! Suspend and resume: a pass begun with `VK_RENDERING_SUSPENDING_BIT`
//! is not rendered at its end. Resumed in the same command buffer (the
//! next begin has `VK_RENDERING_RESUMING_BIT`), its recording simply
//! goes on: the spec allows only state commands between the two, which
//! may as well be in the pass's stream, so the two are one pass recorded
//! at once. Still suspended when the command buffer ends, or begun
//! resuming a pass of an earlier command buffer, the pass's recording is
//! closed into a piece the submit renders with the rest of its chain
//! (`super::pass_chain`): one render pass whose mode, loads and stores
//! are known only when every piece is.

use std::sync::Arc;

use ash::vk;

use super::buffer::{Recording, Segment};
use super::pass::{PassPiece, RenderingFlags};
use crate::error::VkResult;
use crate::rendering::RenderingDesc;

fn fail<T>(command: &str, what: &str) -> VkResult<T> {
    eprintln!("parsnip: {command}: {what}");
    Err(vk::Result::ERROR_UNKNOWN)
}

impl Recording {
    /// `vkCmdBeginRendering`.
    pub fn begin_rendering(&mut self, desc: &RenderingDesc) -> VkResult<()> {
        let command = "vkCmdBeginRendering";
        let resumes = desc.flags.contains(vk::RenderingFlags::RESUMING);
        let suspends = desc.flags.contains(vk::RenderingFlags::SUSPENDING);
        let instance = desc.instance()?;
        if let Some(p) = self.pass.as_deref_mut() {
            let suspended = p.rendering.is_some_and(|r| r.suspended);
            if !suspended {
                return fail(command, "a render pass is already begun");
            }
            if !resumes {
                return fail(
                    command,
                    "the suspended render pass must be resumed (VK_RENDERING_RESUMING_BIT) \
                     before another begins",
                );
            }
            if p.area != desc.area || !p.framebuffer.same_views(&instance.framebuffer) {
                return fail(
                    command,
                    "the resuming pass renders to other attachments or another area than \
                     the suspended one",
                );
            }
            if let Some(r) = p.rendering.as_mut() {
                r.suspended = false;
                r.suspends = suspends;
            }
            return Ok(());
        }
        let flags = RenderingFlags {
            resumes,
            suspends,
            suspended: false,
        };
        self.begin_pass(
            instance.pass,
            instance.framebuffer,
            desc.area,
            instance.clears,
            Some(flags),
        )
    }

    /// `vkCmdEndRendering`.
    pub fn end_rendering(&mut self) -> VkResult<()> {
        let command = "vkCmdEndRendering";
        let Some(p) = self.pass.as_deref_mut() else {
            return fail(command, "no render pass is begun");
        };
        let Some(r) = p.rendering.as_mut() else {
            return fail(command, "the pass was begun by vkCmdBeginRenderPass");
        };
        if r.suspended {
            return fail(command, "the pass was already ended (suspended)");
        }
        if r.suspends {
            r.suspended = true;
            return Ok(());
        }
        let resumes = r.resumes;
        let piece = self.close_pass(command)?;
        if resumes {
            // The end of a chain begun in an earlier command buffer.
            self.hand_over(piece)
        } else {
            self.render_pass_instance(&[&piece])
        }
    }

    /// At `vkEndCommandBuffer`: a suspended pass is handed to the submit
    /// as a piece of its chain; any other pass still begun is an error.
    pub(super) fn hand_over_suspended(&mut self) -> VkResult<()> {
        match self.pass.as_deref() {
            None => Ok(()),
            Some(p) if p.rendering.is_some_and(|r| r.suspended) => {
                let piece = self.close_pass("vkEndCommandBuffer")?;
                self.hand_over(piece)
            }
            Some(_) => fail("vkEndCommandBuffer", "a render pass is still begun"),
        }
    }

    /// Closes what the buffer recorded before `piece` and adds the piece
    /// (with the availability of the queries ended in it) to what the
    /// buffer submits.
    fn hand_over(&mut self, mut piece: PassPiece) -> VkResult<()> {
        piece.owed_availability = std::mem::take(&mut self.owed_availability);
        let before = self.cs.take_ibs();
        let renders_pass = std::mem::take(&mut self.renders_pass);
        self.segments.push(Segment::Ibs {
            ibs: before,
            renders_pass,
        });
        self.segments.push(Segment::Piece(Arc::new(piece)));
        Ok(())
    }
}
