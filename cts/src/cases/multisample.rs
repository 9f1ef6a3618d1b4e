//! Multisampled draws, 4 samples a pixel (what lavapipe and Parsnip both
//! offer), resolved into the 64x64 RGBA8 image the draw tests compare: by
//! a subpass's resolve attachment or by `vkCmdResolveImage` (after a
//! `vkCmdCopyImage` between multisampled images in one case), with a
//! sample mask, alpha to coverage with alpha to one, a depth test, and
//! clears of a multisampled image outside and inside a pass.
//!
//! The colours are UNORM8 codes divisible by 4 over a black clear, so the
//! average of any number of covered samples is exact and a resolve has one
//! right answer. Edges at half pixels (window x = k + 0.5) cover exactly
//! the two standard 4x sample positions right of the pixel centre (x =
//! 0.625 and 0.875, samples 1 and 3): such a pixel resolves to half the
//! colour, which the probes check. Slanted edges are kept by the image
//! comparison, whose edge tolerance covers where two rasterizers may put
//! a sample that lies on an edge.

use super::draws::{
    floats, full, probe, quad, unorm8, ATTRIBUTES, COLOR_LAYOUT, DEPTH_LAYOUT, RGBA8, SIZE,
};
use super::render_passes::{color, depth, prepared_of_size, read_back};
use crate::case::{Case, CaseResult, Stop};
use crate::harness::{Buffer, GraphicsDesc, Harness, Image, ImageShape, PassAttachment, Recorder};
use crate::shaders;
use ash::vk;

pub const CASES: &[Case] = &[
    Case {
        name: "draws.msaa_resolve_attachment",
        run: resolve_attachment,
    },
    Case {
        name: "draws.msaa_resolve_image",
        run: resolve_image,
    },
    Case {
        name: "draws.msaa_copy",
        run: copy,
    },
    Case {
        name: "draws.msaa_sample_mask",
        run: sample_mask,
    },
    Case {
        name: "draws.msaa_alpha_to_coverage_and_one",
        run: alpha_to_coverage_and_one,
    },
    Case {
        name: "draws.msaa_depth_test",
        run: depth_test,
    },
    Case {
        name: "draws.msaa_clears",
        run: |h| clears(h, SAMPLES),
    },
    // Lavapipe offers 1 and 4 samples: the 2x case is checked against its
    // probes only (the draw tests compare draws.* with lavapipe).
    Case {
        name: "multisample.two_samples_clears",
        run: |h| clears(h, vk::SampleCountFlags::TYPE_2),
    },
];

pub(crate) const SAMPLES: vk::SampleCountFlags = vk::SampleCountFlags::TYPE_4;
pub(crate) const BLACK: [f32; 4] = [0.0, 0.0, 0.0, 1.0];
const CLEAR: vk::AttachmentLoadOp = vk::AttachmentLoadOp::CLEAR;
const SRC: vk::ImageLayout = vk::ImageLayout::TRANSFER_SRC_OPTIMAL;
const DST: vk::ImageLayout = vk::ImageLayout::TRANSFER_DST_OPTIMAL;

/// A UNORM8 code as a float colour component.
pub(crate) fn code(c: u8) -> f32 {
    f32::from(c) / 255.0
}

/// NDC x or y of window coordinate `w` on the 64x64 viewport.
pub(crate) fn ndc(w: f32) -> f32 {
    w / 32.0 - 1.0
}

/// The expected texel of `c` (codes) covering `n` of 4 samples over black.
pub(crate) fn covered(c: [u8; 3], n: u32) -> [u8; 4] {
    let part = |v: u8| (u32::from(v) * n / 4) as u8;
    [part(c[0]), part(c[1]), part(c[2]), 255]
}

/// A 4x pass over a 64x64 RGBA8 image loaded by `load` (cleared to black)
/// (with a 4x D16 attachment cleared to 1.0 if `with_depth`), resolved
/// into a single-sampled image by a resolve attachment if
/// `attach_resolve`.
struct Target {
    samples: vk::SampleCountFlags,
    pass: vk::RenderPass,
    fb: vk::Framebuffer,
    msaa: Image,
    resolved: Image,
    clears: Vec<vk::ClearValue>,
}

pub(crate) fn multisampled(
    h: &mut Harness,
    format: vk::Format,
    layout: vk::ImageLayout,
    samples: vk::SampleCountFlags,
) -> Result<Image, Stop> {
    let shape = ImageShape::two_d(format, SIZE.0, SIZE.1, vk::ImageTiling::OPTIMAL);
    let image = h.multisampled_image(shape, samples)?;
    h.run(|r| r.relayout(&image, vk::ImageLayout::UNDEFINED, layout))?;
    Ok(image)
}

fn target(
    h: &mut Harness,
    samples: vk::SampleCountFlags,
    load: vk::AttachmentLoadOp,
    attach_resolve: bool,
    with_depth: bool,
) -> Result<Target, Stop> {
    let msaa = multisampled(h, RGBA8, COLOR_LAYOUT, samples)?;
    let resolved = prepared_of_size(h, RGBA8, SIZE, color([0.0; 4]), COLOR_LAYOUT)?;
    let attachment = |image, load, layout| PassAttachment {
        image,
        load,
        layout,
    };
    let mut attachments = vec![(attachment(msaa, load, COLOR_LAYOUT), samples)];
    let mut clears = vec![color(BLACK)];
    let resolve = attach_resolve.then(|| {
        attachments.push((
            attachment(resolved, vk::AttachmentLoadOp::DONT_CARE, COLOR_LAYOUT),
            vk::SampleCountFlags::TYPE_1,
        ));
        clears.push(color(BLACK));
        attachments.len() as u32 - 1
    });
    let mut depth_index = None;
    if with_depth {
        let d = multisampled(h, vk::Format::D16_UNORM, DEPTH_LAYOUT, samples)?;
        attachments.push((
            attachment(d, vk::AttachmentLoadOp::CLEAR, DEPTH_LAYOUT),
            samples,
        ));
        clears.push(depth(1.0));
        depth_index = Some(attachments.len() as u32 - 1);
    }
    let pass = h.multisampled_render_pass(&attachments, 0, resolve, depth_index)?;
    let plain: Vec<PassAttachment> = attachments.iter().map(|(a, _)| *a).collect();
    let fb = h.framebuffer(pass, &plain)?;
    Ok(Target {
        samples,
        pass,
        fb,
        msaa,
        resolved,
        clears,
    })
}

/// attributes.vert's vertex buffer of `vertices` and one instance at no
/// offset.
fn buffers(h: &mut Harness, vertices: &[f32]) -> Result<[Buffer; 2], Stop> {
    let vb = h.host_buffer_with(vk::BufferUsageFlags::VERTEX_BUFFER, &floats(vertices))?;
    let offsets = h.host_buffer_with(vk::BufferUsageFlags::VERTEX_BUFFER, &floats(&[0.0; 2]))?;
    Ok([vb, offsets])
}

/// attributes.vert and `fs` into the target's pass at 4 samples.
fn desc<'a>(t: &Target, fs: &'a shaders::Shader) -> GraphicsDesc<'a> {
    let mut d = GraphicsDesc::new(&shaders::ATTRIBUTES_VERT, fs, t.pass, SIZE);
    d.bindings = &ATTRIBUTES;
    d.samples = t.samples;
    d
}

/// Draws `vertices` with `pipeline` in the target's pass, then `after`
/// outside it.
fn draw(
    h: &mut Harness,
    t: &Target,
    pipeline: vk::Pipeline,
    vertices: &[f32],
    after: impl FnOnce(&Recorder<'_>),
) -> Result<(), Stop> {
    let [vb, offsets] = buffers(h, vertices)?;
    h.run(|r| {
        r.begin_pass(t.pass, t.fb, full(), &t.clears);
        r.bind_graphics(pipeline);
        r.bind_vertex_buffers(&[&vb, &offsets]);
        r.draw((vertices.len() / 7) as u32, 1, 0, 0);
        r.end_pass();
        after(r);
    })
}

/// The scene most cases draw: a rectangle of `c` from window (10.5, 8) to
/// (30, 56) (its left column half covered), and a slanted triangle of `c`
/// on the right.
pub(crate) fn scene(c: [u8; 3]) -> Vec<f32> {
    let f = c.map(code);
    let mut v = quad(ndc(10.5), ndc(8.0), ndc(30.0), ndc(56.0), 0.5, f);
    for (x, y) in [(40.0, 8.0), (60.0, 56.0), (36.0, 50.0)] {
        v.extend([ndc(x), ndc(y), 0.5, f[0], f[1], f[2], 1.0]);
    }
    v
}

/// The scene's probes with `inside` the texel of a fully covered pixel
/// and `half` that of the rectangle's left column.
pub(crate) fn probe_scene(result: &mut CaseResult, img: &[u8], inside: [u8; 4], half: [u8; 4]) {
    for (x, y) in [(11, 8), (20, 30), (29, 55), (44, 30), (50, 40)] {
        probe(result, img, x, y, inside);
    }
    for y in [8, 20, 40, 55] {
        probe(result, img, 10, y, half);
    }
    let black = unorm8(BLACK);
    for (x, y) in [
        (9, 30),
        (30, 30),
        (20, 7),
        (20, 56),
        (0, 0),
        (63, 63),
        (36, 20),
    ] {
        probe(result, img, x, y, black);
    }
}

pub(crate) const RED: [u8; 3] = [204, 0, 100];

/// The scene at 4x, resolved by the subpass's resolve attachment.
fn resolve_attachment(h: &mut Harness) -> Result<CaseResult, Stop> {
    let t = target(h, SAMPLES, CLEAR, true, false)?;
    let pipeline = h.graphics_pipeline(&desc(&t, &shaders::COLOUR_FRAG))?;
    draw(h, &t, pipeline, &scene(RED), |_| {})?;
    let img = read_back(h, &t.resolved, COLOR_LAYOUT, 4)?;
    let mut result = CaseResult::new();
    probe_scene(&mut result, &img, covered(RED, 4), covered(RED, 2));
    result.keep_approximate("rgba8", img);
    Ok(result)
}

/// The scene at 4x, stored, then resolved by `vkCmdResolveImage`.
fn resolve_image(h: &mut Harness) -> Result<CaseResult, Stop> {
    let t = target(h, SAMPLES, CLEAR, false, false)?;
    let pipeline = h.graphics_pipeline(&desc(&t, &shaders::COLOUR_FRAG))?;
    let (msaa, resolved) = (t.msaa, t.resolved);
    draw(h, &t, pipeline, &scene(RED), |r| {
        r.relayout(&msaa, COLOR_LAYOUT, SRC);
        r.relayout(&resolved, COLOR_LAYOUT, DST);
        resolve_whole(r, &msaa, &resolved);
    })?;
    let img = read_back(h, &t.resolved, DST, 4)?;
    let mut result = CaseResult::new();
    probe_scene(&mut result, &img, covered(RED, 4), covered(RED, 2));
    result.keep_approximate("rgba8", img);
    Ok(result)
}

/// The whole of every layer-0 subresource of a 64x64 image.
fn whole() -> (vk::ImageSubresourceLayers, vk::Extent3D) {
    let layers = vk::ImageSubresourceLayers {
        aspect_mask: vk::ImageAspectFlags::COLOR,
        mip_level: 0,
        base_array_layer: 0,
        layer_count: 1,
    };
    let extent = vk::Extent3D {
        width: SIZE.0,
        height: SIZE.1,
        depth: 1,
    };
    (layers, extent)
}

/// `vkCmdResolveImage` of all of `msaa` (in TRANSFER_SRC) into
/// `resolved` (in TRANSFER_DST).
fn resolve_whole(r: &Recorder<'_>, msaa: &Image, resolved: &Image) {
    let (layers, extent) = whole();
    let region = vk::ImageResolve {
        src_subresource: layers,
        src_offset: vk::Offset3D::default(),
        dst_subresource: layers,
        dst_offset: vk::Offset3D::default(),
        extent,
    };
    // SAFETY: the command buffer is recording outside a pass; both images
    // are alive and in the layouts named.
    unsafe {
        r.device().cmd_resolve_image(
            r.command_buffer(),
            msaa.handle,
            SRC,
            resolved.handle,
            DST,
            &[region],
        )
    };
}

/// The scene at 4x, stored, copied by `vkCmdCopyImage` into another 4x
/// image, which `vkCmdResolveImage` resolves: the copy moves every
/// sample.
fn copy(h: &mut Harness) -> Result<CaseResult, Stop> {
    let t = target(h, SAMPLES, CLEAR, false, false)?;
    let pipeline = h.graphics_pipeline(&desc(&t, &shaders::COLOUR_FRAG))?;
    let copied = multisampled(h, RGBA8, COLOR_LAYOUT, SAMPLES)?;
    let (msaa, resolved) = (t.msaa, t.resolved);
    draw(h, &t, pipeline, &scene(RED), |r| {
        r.relayout(&msaa, COLOR_LAYOUT, SRC);
        r.relayout(&copied, COLOR_LAYOUT, DST);
        let (layers, extent) = whole();
        let region = vk::ImageCopy {
            src_subresource: layers,
            src_offset: vk::Offset3D::default(),
            dst_subresource: layers,
            dst_offset: vk::Offset3D::default(),
            extent,
        };
        // SAFETY: the command buffer is recording outside a pass; both
        // images are alive and in the layouts named.
        unsafe {
            r.device().cmd_copy_image(
                r.command_buffer(),
                msaa.handle,
                SRC,
                copied.handle,
                DST,
                &[region],
            )
        };
        r.relayout(&copied, DST, SRC);
        r.relayout(&resolved, COLOR_LAYOUT, DST);
        resolve_whole(r, &copied, &resolved);
    })?;
    let img = read_back(h, &t.resolved, DST, 4)?;
    let mut result = CaseResult::new();
    probe_scene(&mut result, &img, covered(RED, 4), covered(RED, 2));
    result.keep_approximate("rgba8", img);
    Ok(result)
}

/// The scene with the sample mask 0b0011: samples 0 and 1 of each pixel,
/// of which only sample 1 is right of the centre (the half column).
fn sample_mask(h: &mut Harness) -> Result<CaseResult, Stop> {
    let t = target(h, SAMPLES, CLEAR, true, false)?;
    let mut d = desc(&t, &shaders::COLOUR_FRAG);
    d.sample_mask = Some(0b0011);
    let pipeline = h.graphics_pipeline(&d)?;
    draw(h, &t, pipeline, &scene(RED), |_| {})?;
    let img = read_back(h, &t.resolved, COLOR_LAYOUT, 4)?;
    let mut result = CaseResult::new();
    probe_scene(&mut result, &img, covered(RED, 2), covered(RED, 1));
    result.keep_approximate("rgba8", img);
    Ok(result)
}

/// A rectangle on whole pixels, window (16, 16) to (48, 48), at alpha 0.5
/// (translucent.frag) with alpha to coverage, which keeps 2 of 4 samples,
/// and alpha to one, which writes alpha 1 to them: it resolves to half
/// its colour, opaque. Which two samples alpha to coverage keeps is the
/// implementation's; whole pixels make the resolve the same for any two.
fn alpha_to_coverage_and_one(h: &mut Harness) -> Result<CaseResult, Stop> {
    if !h.caps().alpha_to_one {
        return Err(Stop::NotSupported("alphaToOne".into()));
    }
    let t = target(h, SAMPLES, CLEAR, true, false)?;
    let mut d = desc(&t, &shaders::TRANSLUCENT_FRAG);
    d.alpha_to_coverage = true;
    d.alpha_to_one = true;
    let pipeline = h.graphics_pipeline(&d)?;
    let f = RED.map(code);
    let v = quad(ndc(16.0), ndc(16.0), ndc(48.0), ndc(48.0), 0.5, f);
    draw(h, &t, pipeline, &v, |_| {})?;
    let img = read_back(h, &t.resolved, COLOR_LAYOUT, 4)?;
    let mut result = CaseResult::new();
    for (x, y) in [(16, 16), (47, 47), (30, 20), (16, 47)] {
        probe(&mut result, &img, x, y, covered(RED, 2));
    }
    for (x, y) in [(15, 30), (48, 30), (30, 15), (30, 48)] {
        probe(&mut result, &img, x, y, unorm8(BLACK));
    }
    result.keep_approximate("rgba8", img);
    Ok(result)
}

/// Two rectangles with a 4x depth test (LESS, D16 cleared to 1.0): a far
/// blue one over window x [8, 40), then a near green one over [24.5, 56),
/// then a far blue one again over [40, 56), which loses to the green.
/// The green's left column covers two samples of each pixel and the blue
/// under it keeps the other two.
fn depth_test(h: &mut Harness) -> Result<CaseResult, Stop> {
    let t = target(h, SAMPLES, CLEAR, true, true)?;
    let mut d = desc(&t, &shaders::COLOUR_FRAG);
    d.depth = Some(vk::CompareOp::LESS);
    let pipeline = h.graphics_pipeline(&d)?;
    let (blue, green) = ([0u8, 0, 204], [0u8, 204, 0]);
    let (y0, y1) = (ndc(16.0), ndc(48.0));
    let mut v = quad(ndc(8.0), y0, ndc(40.0), y1, 0.75, blue.map(code));
    v.extend(quad(ndc(24.5), y0, ndc(56.0), y1, 0.25, green.map(code)));
    v.extend(quad(ndc(40.0), y0, ndc(56.0), y1, 0.75, blue.map(code)));
    draw(h, &t, pipeline, &v, |_| {})?;
    let img = read_back(h, &t.resolved, COLOR_LAYOUT, 4)?;
    let mut result = CaseResult::new();
    let (b, g) = (covered(blue, 4), covered(green, 4));
    let mixed = [0, 102, 102, 255];
    for (x, y, want) in [
        (8, 16, b),
        (20, 40, b),
        (25, 16, g),
        (45, 30, g),
        (55, 47, g),
        (24, 16, mixed),
        (24, 47, mixed),
        (7, 30, unorm8(BLACK)),
        (30, 15, unorm8(BLACK)),
        (56, 30, unorm8(BLACK)),
    ] {
        probe(&mut result, &img, x, y, want);
    }
    result.keep_approximate("rgba8", img);
    Ok(result)
}

/// The clears of a `samples` image: vkCmdClearColorImage to one colour
/// before the pass (which loads it), vkCmdClearAttachments of the top
/// right quarter to another inside it, then a rectangle from window
/// (20.5, 24) to (44, 40) over both, resolved by a resolve attachment.
/// Every component differs, so a sample's bytes in the wrong order or
/// place would show; the rectangle's half column (two of four samples, or
/// one of two: the standard 2x positions are at x = 0.75 and 0.25) mixes
/// it with the first.
fn clears(h: &mut Harness, samples: vk::SampleCountFlags) -> Result<CaseResult, Stop> {
    let t = target(h, samples, vk::AttachmentLoadOp::LOAD, true, false)?;
    let pipeline = h.graphics_pipeline(&desc(&t, &shaders::COLOUR_FRAG))?;
    let (first, second) = ([100u8, 204, 0], [0u8, 100, 204]);
    let value = |c: [u8; 3]| vk::ClearColorValue {
        float32: [code(c[0]), code(c[1]), code(c[2]), 1.0],
    };
    let msaa = t.msaa;
    h.run(|r| {
        r.relayout(&msaa, COLOR_LAYOUT, DST);
        r.clear_color(&msaa, value(first), &[msaa.range()]);
        r.relayout(&msaa, DST, COLOR_LAYOUT);
    })?;
    let v = quad(
        ndc(20.5),
        ndc(24.0),
        ndc(44.0),
        ndc(40.0),
        0.5,
        RED.map(code),
    );
    let [vb, offsets] = buffers(h, &v)?;
    h.run(|r| {
        r.begin_pass(t.pass, t.fb, full(), &t.clears);
        r.clear_attachments(
            &[vk::ClearAttachment {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                color_attachment: 0,
                clear_value: vk::ClearValue {
                    color: value(second),
                },
            }],
            &[vk::ClearRect {
                rect: vk::Rect2D {
                    offset: vk::Offset2D { x: 32, y: 0 },
                    extent: vk::Extent2D {
                        width: 32,
                        height: 32,
                    },
                },
                base_array_layer: 0,
                layer_count: 1,
            }],
        );
        r.bind_graphics(pipeline);
        r.bind_vertex_buffers(&[&vb, &offsets]);
        r.draw(6, 1, 0, 0);
        r.end_pass();
    })?;
    let img = read_back(h, &t.resolved, COLOR_LAYOUT, 4)?;
    let mut result = CaseResult::new();
    let half = [152, 102, 50, 255];
    for (x, y, want) in [
        (5, 50, covered(first, 4)),
        (31, 0, covered(first, 4)),
        (32, 0, covered(second, 4)),
        (63, 31, covered(second, 4)),
        (50, 28, covered(second, 4)),
        (63, 32, covered(first, 4)),
        (30, 30, covered(RED, 4)),
        (43, 24, covered(RED, 4)),
        (20, 30, half),
        (20, 39, half),
        (44, 30, covered(second, 4)),
    ] {
        probe(&mut result, &img, x, y, want);
    }
    result.keep_approximate("rgba8", img);
    Ok(result)
}
