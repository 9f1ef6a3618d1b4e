//! Render passes: `vkCmdBeginRenderPass`, `vkCmdNextSubpass`,
//! `vkCmdEndRenderPass` and `vkCmdClearAttachments`.
//!
//! A pass records its commands into a stream of its own (the command
//! buffer's stream is set aside until the pass ends), as Turnip keeps a
//! render pass's draws apart from its set-up and its tile loads and
//! stores: how the pass is rendered is decided at its end, when all of it
//! is known ([`crate::tiling::render_mode`]), and the draws' stream is
//! then run once straight to memory (sysmem) or once per bin in GMEM
//! (`gmem_pass`). The stream starts with everything it draws with marked
//! unprogrammed, so that it programs its own state and every bin's replay
//! of it starts the same; and it programs each attachment's GMEM offset
//! with its memory, so that one stream serves either mode.
//!
//! In sysmem the pass is: the render-mode marker (RM6_DIRECT_RENDER, as
//! Turnip's `*_sysmem` streams start a pass), the window (no bin), the
//! load-op clears of the render area by the 2D engine (Turnip clears
//! sysmem attachments with the blitter too), then the pass's own
//! commands, then the resolves of the subpasses' resolve attachments
//! (`resolve`). Stores need nothing: the attachments are written in place,
//! and what reads them later waits for the CCU flush its barrier asks for.

use std::sync::Arc;

use ash::vk;
use parsnip_hw_state::bin::{program_sysmem_window, BIN_DWORDS};
use parsnip_hw_state::draw::{sysmem_marker, visibility_override, VISIBILITY_OVERRIDE_DWORDS};

use super::blit2d::Blit;
use super::buffer::Recording;
use super::clear_image::pack_color;
use super::gmem_pass::GmemPass;
use super::resolve::{pass_resolves, resolves_fit_the_end};
use super::stream::{CommandStream, Ib};
use crate::error::VkResult;
use crate::framebuffer::Framebuffer;
use crate::image::view::ImageView;
use crate::render_pass::{layer_ranges, RenderPass};
use crate::tiling::attachment_ops::{attachment_ops, gmem_blocker};
use crate::tiling::render_mode::{binning, decide, RenderMode};
use crate::tiling::PassTiling;

/// A render pass being recorded.
pub struct PassRecording {
    pub pass: Arc<RenderPass>,
    pub framebuffer: Arc<Framebuffer>,
    pub area: vk::Rect2D,
    pub clears: Vec<vk::ClearValue>,
    pub subpass: u32,
    /// The pass's GMEM layout and bins, or why it has none.
    pub tiling: Result<PassTiling, String>,
    /// The first thing recorded in the pass that bins cannot replay.
    sysmem_only: Option<String>,
    /// The command buffer's stream, set aside while the pass's commands go
    /// to a stream of their own.
    outer: CommandStream,
    /// The most draws the pass's stream makes (a counted indirect draw
    /// as its maximum): what its visibility streams must hold.
    pub draws: u64,
    /// For a pass begun by `vkCmdBeginRendering`: how it suspends and
    /// resumes (`super::rendering`).
    pub rendering: Option<RenderingFlags>,
}

/// A dynamic rendering pass's suspend and resume flags, and whether it is
/// suspended now (ended with SUSPENDING, not yet resumed in this command
/// buffer).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RenderingFlags {
    /// Begun with RESUMING, continuing a pass an earlier command buffer
    /// suspended.
    pub resumes: bool,
    /// Begun (or last resumed) with SUSPENDING: its end suspends it.
    pub suspends: bool,
    pub suspended: bool,
}

/// A render pass instance's recording, closed: what it renders to, what
/// the tiler must know of its commands, its draws' stream, and for a
/// piece of a suspended chain where it stands in the chain. A pass
/// begun and ended in one command buffer is rendered from its one piece
/// at its end; a chain across command buffers at submit
/// (`crate::cmd::pass_chain`).
pub struct PassPiece {
    pub pass: Arc<RenderPass>,
    pub framebuffer: Arc<Framebuffer>,
    pub area: vk::Rect2D,
    pub clears: Vec<vk::ClearValue>,
    pub tiling: Result<PassTiling, String>,
    pub sysmem_only: Option<String>,
    pub draws: u64,
    pub ibs: Vec<Ib>,
    /// The availability words of queries ended in the piece.
    pub owed_availability: Vec<u64>,
    /// Continues a piece of an earlier command buffer.
    pub resumes: bool,
    /// Continued by a piece of a later command buffer.
    pub suspends: bool,
}

impl PassRecording {
    /// The command buffer's own stream, set aside by the pass.
    pub fn into_outer(self) -> CommandStream {
        self.outer
    }

    /// The pass must be rendered straight to memory, because of `why`.
    pub fn require_sysmem(&mut self, why: impl Into<String>) {
        if self.sysmem_only.is_none() {
            self.sysmem_only = Some(why.into());
        }
    }

    /// The GMEM offset of attachment `index`, 0 when it has none.
    pub fn gmem_offset(&self, index: u32) -> u32 {
        self.tiling
            .as_ref()
            .ok()
            .and_then(|t| t.gmem.offsets.get(index as usize).copied().flatten())
            .unwrap_or(0)
    }
}

impl Recording {
    /// `vkCmdBeginRenderPass` (and `vkCmdBeginRenderPass2`).
    pub fn begin_render_pass(
        &mut self,
        pass: Arc<RenderPass>,
        framebuffer: Arc<Framebuffer>,
        area: vk::Rect2D,
        clears: Vec<vk::ClearValue>,
    ) -> VkResult<()> {
        self.begin_pass(pass, framebuffer, area, clears, None)
    }

    /// Begins recording a render pass instance (of a `VkRenderPass`, or
    /// of dynamic rendering with its `rendering` flags).
    pub(super) fn begin_pass(
        &mut self,
        pass: Arc<RenderPass>,
        framebuffer: Arc<Framebuffer>,
        area: vk::Rect2D,
        clears: Vec<vk::ClearValue>,
        rendering: Option<RenderingFlags>,
    ) -> VkResult<()> {
        if self.pass.is_some() {
            eprintln!("parsnip: vkCmdBeginRenderPass: a render pass is already begun");
            return Err(vk::Result::ERROR_UNKNOWN);
        }
        if framebuffer.attachments.len() != pass.desc.attachments.len() {
            eprintln!("parsnip: vkCmdBeginRenderPass: the framebuffer is not of the render pass");
            return Err(vk::Result::ERROR_UNKNOWN);
        }
        // Not built yet, and refused rather than rendered wrong: a resolve
        // followed by a subpass that uses what it resolves (the resolves
        // run at the end of the pass).
        if !resolves_fit_the_end(&pass) {
            eprintln!(
                "parsnip: vkCmdBeginRenderPass: resolves whose attachments a later subpass \
                 uses are not supported yet"
            );
            return Err(vk::Result::ERROR_UNKNOWN);
        }
        // What was pending belongs before the pass.
        self.flush_pending()?;
        let draws = self
            .spare_pass_streams
            .pop()
            .unwrap_or_else(|| CommandStream::new(&self.device));
        let outer = std::mem::replace(&mut self.cs, draws);
        self.keep(pass.clone());
        self.keep(framebuffer.clone());
        // forcebin: bins to bin into, 2 across and down where they fit.
        let min_bins = if self.device.debug.forcebin { 2 } else { 1 };
        let tiling = PassTiling::new(&self.device.gpu, &pass, &framebuffer, min_bins);
        let sysmem_only = self.device.breadcrumbs.as_ref().map(|_| {
            "breadcrumbs are on: a bin's replay would leave each command's crumb again".to_string()
        });
        self.pass = Some(Box::new(PassRecording {
            pass,
            framebuffer,
            area,
            clears,
            subpass: 0,
            tiling,
            sysmem_only,
            outer,
            draws: 0,
            rendering,
        }));
        // The pass's stream may be replayed (once per bin), each replay
        // starting from what the one before left: it must program every
        // piece of draw state its draws use rather than rely on what was
        // programmed before it.
        self.graphics.invalidate();
        Ok(())
    }

    /// `vkCmdNextSubpass`.
    pub fn next_subpass(&mut self) -> VkResult<()> {
        let pass = self.pass_recording("vkCmdNextSubpass")?;
        if pass.subpass + 1 >= pass.pass.desc.subpasses.len() as u32 {
            eprintln!("parsnip: vkCmdNextSubpass: the pass has no further subpass");
            return Err(vk::Result::ERROR_UNKNOWN);
        }
        pass.subpass += 1;
        self.graphics.framebuffer_dirty = true;
        Ok(())
    }

    /// `vkCmdEndRenderPass`: the pass is rendered, and its stream joins
    /// the command buffer's.
    pub fn end_render_pass(&mut self) -> VkResult<()> {
        if self.pass.as_ref().is_some_and(|p| p.rendering.is_some()) {
            eprintln!("parsnip: vkCmdEndRenderPass: the pass was begun by vkCmdBeginRendering");
            return Err(vk::Result::ERROR_UNKNOWN);
        }
        let piece = self.close_pass("vkCmdEndRenderPass")?;
        self.render_pass_instance(&[&piece])
    }

    /// Ends the recording of the pass begun: its stream closed, the
    /// command buffer's own stream back.
    pub(super) fn close_pass(&mut self, command: &str) -> VkResult<PassPiece> {
        let Some(pass) = self.pass.take() else {
            eprintln!("parsnip: {command}: no render pass is begun");
            return Err(vk::Result::ERROR_UNKNOWN);
        };
        let PassRecording {
            pass: render_pass,
            framebuffer,
            area,
            clears,
            tiling,
            sysmem_only,
            outer,
            draws,
            rendering,
            ..
        } = *pass;
        self.flush_pending()?;
        let mut stream = std::mem::replace(&mut self.cs, outer);
        let ibs = stream.finish();
        self.spent_pass_streams.push(stream);
        Ok(PassPiece {
            pass: render_pass,
            framebuffer,
            area,
            clears,
            tiling,
            sysmem_only,
            draws,
            ibs: ibs?,
            owed_availability: Vec::new(),
            resumes: rendering.is_some_and(|r| r.resumes),
            suspends: rendering.is_some_and(|r| r.suspends),
        })
    }

    /// Renders the render pass instance recorded as `pieces` (one, or the
    /// chain of a suspended and resumed dynamic rendering pass): one
    /// decision for all of them, made from the first piece's pass,
    /// framebuffer and render area (which every piece shares), what any
    /// of them did that bins cannot replay and their draws together; the
    /// first piece's loads and clears, the pieces' streams in order, and
    /// the stores and resolves once.
    pub(crate) fn render_pass_instance(&mut self, pieces: &[&PassPiece]) -> VkResult<()> {
        let Some(first) = pieces.first() else {
            return Ok(());
        };
        self.renders_pass = true;
        let PassPiece {
            pass: render_pass,
            framebuffer,
            area,
            clears,
            tiling,
            ..
        } = first;
        let area = *area;
        let draw_count: u64 = pieces.iter().map(|p| p.draws).sum();
        let ibs: Vec<Ib> = pieces.iter().flat_map(|p| p.ibs.iter().cloned()).collect();
        for p in pieces {
            self.owed_availability
                .extend_from_slice(&p.owed_availability);
        }
        let ops = match tiling {
            Ok(t) => attachment_ops(render_pass, framebuffer, &t.gmem.offsets),
            Err(_) => Vec::new(),
        };
        let blocker = pieces
            .iter()
            .find_map(|p| p.sysmem_only.clone())
            .or_else(|| {
                tiling
                    .is_ok()
                    .then(|| gmem_blocker(&self.device.gpu, framebuffer, area, &ops))
                    .flatten()
            });
        let decision = decide(&self.device.debug, tiling, blocker.as_deref());
        let (binned, binning_why) = match tiling {
            Ok(t) => binning(&self.device.debug, t.bins.columns * t.bins.rows, draw_count),
            Err(_) => (false, String::new()),
        };
        if self.device.debug.passes {
            let binning_why = if decision.mode == RenderMode::Gmem {
                format!("; {binning_why}")
            } else {
                String::new()
            };
            let chain = if pieces.len() > 1 {
                format!(
                    " (a chain of {} suspended and resumed pieces)",
                    pieces.len()
                )
            } else {
                String::new()
            };
            eprintln!(
                "parsnip: render pass {}x{}{chain}: {:?}: {}{binning_why}",
                framebuffer.width, framebuffer.height, decision.mode, decision.why
            );
        }
        match (decision.mode, tiling) {
            (RenderMode::Gmem, Ok(t)) => self.render_in_bins(&GmemPass {
                pass: render_pass,
                framebuffer,
                area,
                clears,
                tiling: t,
                ops: &ops,
                draws: &ibs,
                binning: binned.then_some(draw_count),
            })?,
            _ => {
                let (w, h) = (framebuffer.width, framebuffer.height);
                // No binning pass ran: the draws ignore visibility.
                self.cs
                    .emit(2 + BIN_DWORDS + VISIBILITY_OVERRIDE_DWORDS, |r| {
                        sysmem_marker(r)?;
                        program_sysmem_window(r, w, h)?;
                        visibility_override(r, true)
                    })?;
                let loads = load_clears(render_pass, framebuffer, area, clears, self)?;
                self.run_blits(&loads)?;
                self.cs.add_ibs(&ibs)?;
                // The subpasses' resolve attachments, from memory after
                // the draws (in GMEM they would be tile stores).
                let resolves = pass_resolves(render_pass, framebuffer, area)?;
                self.run_resolves(&resolves)?;
            }
        }
        self.write_owed_availability()
    }

    fn pass_recording(&mut self, command: &str) -> VkResult<&mut PassRecording> {
        match self.pass.as_deref_mut() {
            Some(p) => Ok(p),
            None => {
                eprintln!("parsnip: {command}: no render pass is begun");
                Err(vk::Result::ERROR_UNKNOWN)
            }
        }
    }

    /// `vkCmdClearAttachments`: solid 2D blits of each rectangle of each
    /// attachment of the current subpass, in the pass's stream.
    pub fn clear_attachments(
        &mut self,
        attachments: &[vk::ClearAttachment],
        rects: &[vk::ClearRect],
    ) -> VkResult<()> {
        let command = "vkCmdClearAttachments";
        if let Some(pass) = self.pass.as_deref_mut() {
            // The 2D engine writes memory, which a bin's store would overwrite.
            pass.require_sysmem("vkCmdClearAttachments clears with the 2D engine, into memory");
        }
        let Some((subpass, framebuffer)) = self.current_subpass() else {
            eprintln!("parsnip: {command}: no render pass is begun");
            return Err(vk::Result::ERROR_UNKNOWN);
        };
        let Some(framebuffer) = framebuffer else {
            eprintln!(
                "parsnip: {command}: in a secondary command buffer whose inheritance names no \
                 framebuffer is not supported (the clears write the attachments' memory)"
            );
            return Err(vk::Result::ERROR_FEATURE_NOT_PRESENT);
        };
        let mut targets = Vec::new();
        for a in attachments {
            let reference = if a.aspect_mask.contains(vk::ImageAspectFlags::COLOR) {
                subpass.colors.get(a.color_attachment as usize).copied()
            } else {
                subpass.depth_stencil
            };
            let Some(index) = reference.and_then(|r| r.attachment) else {
                continue;
            };
            let view = framebuffer.attachments[index as usize].clone();
            targets.push((view, a.aspect_mask, a.clear_value));
        }
        // In a multiview subpass each rectangle (of layer 0, one layer) is
        // cleared in every view of the subpass, a view being its layer.
        let view_mask = subpass.view_mask;
        let mut blits = Vec::new();
        for (view, aspects, value) in &targets {
            for r in rects {
                for (first, count) in layer_ranges(view_mask, r.layer_count) {
                    let layers = (r.base_array_layer + first, count);
                    blits.extend(self.view_clear(view, *aspects, value, r.rect, layers, command)?);
                }
            }
        }
        self.run_blits(&blits)
    }

    /// The blits clearing `aspects` of `view` to `value` within `area`, for
    /// `layers` (first, count) of the view.
    fn view_clear(
        &self,
        view: &ImageView,
        aspects: vk::ImageAspectFlags,
        value: &vk::ClearValue,
        area: vk::Rect2D,
        layers: (u32, u32),
        command: &str,
    ) -> VkResult<Vec<Blit>> {
        let range = vk::ImageSubresourceRange {
            aspect_mask: aspects & view.image.format.aspects(),
            base_mip_level: view.desc.range.base_mip_level,
            level_count: 1,
            base_array_layer: view.desc.range.base_array_layer + layers.0,
            layer_count: layers.1,
        };
        let class = view.format.class;
        self.clear_blits(&view.image, &[range], Some(area), command, |aspect, fmt| {
            // SAFETY: a clear value's union read as the aspect it clears.
            unsafe {
                if aspect == vk::ImageAspectFlags::COLOR {
                    pack_color(&value.color, fmt, class)
                } else if aspect == vk::ImageAspectFlags::STENCIL {
                    [value.depth_stencil.stencil, 0, 0, 0]
                } else {
                    [value.depth_stencil.depth.to_bits(), 0, 0, 0]
                }
            }
        })
    }
}

/// The clears the pass's load ops ask for, of its render area. An
/// attachment is cleared where the pass begins even if a later subpass
/// first uses it: nothing touches it before then.
fn load_clears(
    pass: &RenderPass,
    framebuffer: &Framebuffer,
    area: vk::Rect2D,
    clears: &[vk::ClearValue],
    rec: &Recording,
) -> VkResult<Vec<Blit>> {
    let mut blits = Vec::new();
    for (i, a) in pass.desc.attachments.iter().enumerate() {
        let view = &framebuffer.attachments[i];
        let mut aspects = vk::ImageAspectFlags::empty();
        let format_aspects = view.format.aspects();
        if a.load_op == vk::AttachmentLoadOp::CLEAR {
            aspects |= format_aspects & (vk::ImageAspectFlags::COLOR | vk::ImageAspectFlags::DEPTH);
        }
        if a.stencil_load_op == vk::AttachmentLoadOp::CLEAR {
            aspects |= format_aspects & vk::ImageAspectFlags::STENCIL;
        }
        if aspects.is_empty() {
            continue;
        }
        let Some(value) = clears.get(i) else {
            eprintln!("parsnip: vkCmdBeginRenderPass: no clear value for attachment {i}");
            return Err(vk::Result::ERROR_UNKNOWN);
        };
        // A multiview pass clears each view the attachment is used in.
        let views = pass.views_using(i as u32);
        if pass.is_multiview() && views == 0 {
            continue;
        }
        for layers in layer_ranges(views, framebuffer.layers) {
            blits.extend(rec.view_clear(
                view,
                aspects,
                value,
                area,
                layers,
                "vkCmdBeginRenderPass",
            )?);
        }
    }
    Ok(blits)
}
