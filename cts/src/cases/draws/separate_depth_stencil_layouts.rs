//! Depth testing with the depth-only layouts of Vulkan 1.2's
//! `separateDepthStencilLayouts`: the depth attachment is prepared into,
//! rendered in and read back from `DEPTH_ATTACHMENT_OPTIMAL`, in a pass
//! made with `vkCreateRenderPass2`.

use super::{
    color, depth, full, opaque, prepared_of_size, probe, quad, read_back, unorm8, Scene, BLUE,
    CLEAR, COLOR_LAYOUT, GREEN, RED, RGBA8, SIZE,
};
use crate::case::{Case, CaseResult, Stop};
use crate::harness::{Harness, PassAttachment};
use ash::vk;

pub const CASES: &[Case] = &[Case {
    name: "draws.separate_depth_stencil_layouts",
    run: separate_depth_stencil_layouts,
}];

const DEPTH_ONLY: vk::ImageLayout = vk::ImageLayout::DEPTH_ATTACHMENT_OPTIMAL;

/// A far blue quad over the middle, a near green one over its top right
/// quarter, then a far red one over the same quarter, which the depth test
/// rejects. The depth image is kept too: 0.75 where only blue is, 0.25
/// under green, the clear's 1.0 elsewhere.
fn separate_depth_stencil_layouts(h: &mut Harness) -> Result<CaseResult, Stop> {
    if !h.caps().separate_depth_stencil_layouts {
        return Err(Stop::NotSupported("separateDepthStencilLayouts".into()));
    }
    if !h.caps().render_pass2 {
        return Err(Stop::NotSupported("vkCreateRenderPass2".into()));
    }
    let mut v = quad(-0.75, -0.75, 0.75, 0.75, 0.75, BLUE);
    v.extend(quad(0.0, 0.0, 0.75, 0.75, 0.25, GREEN));
    v.extend(quad(0.0, 0.0, 0.75, 0.75, 0.75, RED));
    let scene = Scene::new(h, &v, true)?;
    let mut desc = scene.desc();
    desc.depth = Some(vk::CompareOp::LESS);
    let pipeline = h.graphics_pipeline(&desc)?;
    let c = prepared_of_size(h, RGBA8, SIZE, color([0.0; 4]), COLOR_LAYOUT)?;
    let d = prepared_of_size(h, vk::Format::D16_UNORM, SIZE, depth(0.0), DEPTH_ONLY)?;
    let attachments = [
        PassAttachment {
            image: c,
            load: vk::AttachmentLoadOp::CLEAR,
            layout: COLOR_LAYOUT,
        },
        PassAttachment {
            image: d,
            load: vk::AttachmentLoadOp::CLEAR,
            layout: DEPTH_ONLY,
        },
    ];
    let pass = h.render_pass(&attachments, &[&[0]], &[Some(1)], true)?;
    let fb = h.framebuffer(pass, &attachments)?;
    let clears = [color(CLEAR), depth(1.0)];
    h.run(|r| {
        r.begin_pass(pass, fb, full(), &clears);
        r.bind_graphics(pipeline);
        r.bind_vertex_buffers(&[&scene.vb, &scene.offsets]);
        r.draw(18, 1, 0, 0);
        r.end_pass();
    })?;
    let img = read_back(h, &c, COLOR_LAYOUT, 4)?;
    let depths = read_back(h, &d, DEPTH_ONLY, 2)?;
    let mut result = CaseResult::new();
    // Blue over window 8..56 square, green over 32..56 square.
    probe(&mut result, &img, 16, 16, opaque(BLUE));
    probe(&mut result, &img, 44, 44, opaque(GREEN));
    probe(&mut result, &img, 4, 4, unorm8(CLEAR));
    let depth_at = |x: usize, y: usize| {
        let i = (y * SIZE.0 as usize + x) * 2;
        f32::from(u16::from_le_bytes([depths[i], depths[i + 1]])) / 65535.0
    };
    for (x, y, want) in [(16, 16, 0.75), (44, 44, 0.25), (4, 4, 1.0), (60, 30, 1.0)] {
        let got = depth_at(x, y);
        result.require(
            (got - want).abs() <= 1.0 / 65535.0,
            format!("depth at ({x}, {y}) is {got}, expected {want}"),
        );
    }
    result.keep_approximate("rgba8", img);
    result.keep_approximate("depth16", depths);
    Ok(result)
}
