//! Secondary command buffers and `vkCmdExecuteCommands`.
//!
//! A secondary begun with RENDER_PASS_CONTINUE records draws for the
//! subpass its inheritance names ([`InheritedPass`]); the primary runs its
//! IBs in place. Inside a render pass they join the pass's own stream,
//! between the primary's draws, so that whatever replays the pass's
//! stream (once in sysmem, once per bin in GMEM) replays the secondary's
//! draws with it, as Turnip adds a secondary's entries to its draw stream.
//!
//! State (Vulkan's "Command Buffer Recording", inheritance): a secondary
//! starts with nothing bound, and after it runs nothing the primary bound
//! is still bound as far as the hardware goes, so the primary programs its
//! state again before its next draw or dispatch. What a secondary's draws
//! depend on and cannot bind themselves is the subpass's attachments: the
//! primary programs them before the secondary's IBs, so the framebuffer
//! the inheritance may name is not needed for drawing (it is for
//! `vkCmdClearAttachments`, which writes the attachments' memory).
//!
//! Queries active in the primary count the secondary's samples (the
//! hardware's count runs across the IBs); queries a secondary ends inside
//! a pass owe their availability to the primary's pass end.

use std::sync::Arc;

use ash::vk;

use super::buffer::{CommandBuffer, Level, Recording};
use super::stream::Ib;
use crate::error::VkResult;
use crate::framebuffer::Framebuffer;
use crate::render_pass::{RenderPass, Subpass};

/// The render pass instance a secondary command buffer continues.
pub struct InheritedPass {
    pub pass: Arc<RenderPass>,
    pub subpass: u32,
    pub framebuffer: Option<Arc<Framebuffer>>,
}

fn fail<T>(what: &str) -> VkResult<T> {
    eprintln!("parsnip: vkCmdExecuteCommands: {what}");
    Err(vk::Result::ERROR_UNKNOWN)
}

impl Recording {
    /// Whether commands record into a subpass (of the primary's own pass,
    /// or of the one a secondary continues).
    #[inline]
    pub fn in_subpass(&self) -> bool {
        self.pass.is_some() || self.inherited.is_some()
    }

    /// The subpass commands record into, and its framebuffer when known.
    #[inline]
    pub fn current_subpass(&self) -> Option<(&Subpass, Option<&Arc<Framebuffer>>)> {
        if let Some(p) = self.pass.as_deref() {
            let subpass = &p.pass.desc.subpasses[p.subpass as usize];
            return Some((subpass, Some(&p.framebuffer)));
        }
        let i = self.inherited.as_ref()?;
        Some((
            &i.pass.desc.subpasses[i.subpass as usize],
            i.framebuffer.as_ref(),
        ))
    }
}

/// What a secondary hands the primary that executes it.
struct Executed {
    buffer: Arc<CommandBuffer>,
    ibs: Vec<Ib>,
    continues: Option<(u32, usize)>,
    owed_availability: Vec<u64>,
}

impl CommandBuffer {
    /// `vkCmdExecuteCommands`: the secondaries' IBs run in place.
    pub fn execute_commands(&self, secondaries: &[Arc<CommandBuffer>]) {
        let mut executed = Vec::with_capacity(secondaries.len());
        for s in secondaries {
            if s.level != Level::Secondary {
                self.record(|_| fail("a primary command buffer cannot be executed"));
                return;
            }
            let ibs = match s.ibs_for_submit() {
                Ok(ibs) => ibs,
                Err(e) => {
                    self.record(|_| Err(e));
                    return;
                }
            };
            let (continues, owed_availability) = s.with_recording(|r| {
                let continues = r
                    .inherited
                    .as_ref()
                    .map(|i| (i.subpass, i.pass.desc.subpasses.len()));
                (continues, r.owed_availability.clone())
            });
            executed.push(Executed {
                buffer: s.clone(),
                ibs,
                continues,
                owed_availability,
            });
        }
        self.record(move |rec| {
            let current = rec
                .pass
                .as_deref()
                .map(|p| (p.subpass, p.pass.desc.subpasses.len()));
            for e in &executed {
                match (current, e.continues) {
                    (Some(_), None) => {
                        return fail(
                            "inside a render pass, secondaries must have been begun with \
                             RENDER_PASS_CONTINUE",
                        )
                    }
                    (None, Some(_)) => {
                        return fail(
                            "a secondary that continues a render pass is executed outside one",
                        )
                    }
                    // Compatible passes have as many subpasses.
                    (Some(here), Some(there)) if here != there => {
                        return fail("the secondary continues another subpass")
                    }
                    _ => {}
                }
            }
            if let Some(pass) = rec.pass.as_deref_mut() {
                pass.require_sysmem(
                    "secondary command buffers: the tiler does not see their commands",
                );
            }
            rec.flush_pending()?;
            if current.is_some() {
                // The subpass's attachments, which the secondary's draws
                // render to.
                rec.emit_framebuffer()?;
            }
            for e in executed {
                rec.cs.add_ibs(&e.ibs)?;
                rec.owed_availability.extend(e.owed_availability);
                if rec.device.breadcrumbs.is_some() {
                    rec.crumbs.extend(e.buffer.crumbs());
                }
                rec.keep(e.buffer);
            }
            // The secondary may have bound anything: nothing bound here
            // can be assumed still programmed.
            rec.compute.invalidate();
            rec.graphics.invalidate();
            rec.breadcrumb("vkCmdExecuteCommands")
        });
    }
}
