//! Multiview (Vulkan 1.1's `multiview`): a render pass whose subpass has
//! a view mask (`VkRenderPassMultiviewCreateInfo`), and dynamic rendering
//! with a `viewMask`, render every draw once per view into the layer of
//! the view's index. multiview.vert moves each view's scene right by 8
//! pixels per view and multiview.frag writes the view into blue, so each
//! layer shows whether it got its own view's draws; a green quad in
//! front of a red one checks each view's depth test against its own
//! depth layer. The pass's clears and `vkCmdClearAttachments` clear every
//! view; a layer of no view keeps what it held. The layers are kept
//! stacked, layer 0 on top, as one 64 x 64·layers image.

use super::{
    color, depth, floats, full, probe, quad, read_back_layers, unorm8, ATTRIBUTES, CLEAR,
    COLOR_LAYOUT, DEPTH_LAYOUT, GREEN, RED, RGBA8, SIZE,
};
use crate::case::{Case, CaseResult, OrStop, Stop};
use crate::cases::render_passes::prepared_layers;
use crate::harness::{subpass_dependencies, GraphicsDesc, Harness, Image, Recorder};
use crate::shaders;
use ash::vk;

pub const CASES: &[Case] = &[
    Case {
        name: "draws.multiview_2_views",
        run: |h| in_render_pass(h, 0b11, false),
    },
    Case {
        name: "draws.multiview_4_views",
        run: |h| in_render_pass(h, 0b1111, false),
    },
    Case {
        name: "draws.multiview_clear_attachments",
        run: |h| in_render_pass(h, 0b11, true),
    },
    Case {
        name: "draws.multiview_dynamic_rendering",
        run: dynamic_rendering,
    },
];

const D16: vk::Format = vk::Format::D16_UNORM;
/// What a layer holds before the pass.
const BEFORE: [f32; 4] = [0.0; 4];
/// `vkCmdClearAttachments`' colour and rectangle.
const CLEARED: [f32; 4] = [1.0, 1.0, 0.0, 1.0];
const CLEAR_RECT: (u32, u32, u32) = (40, 40, 16);

/// The views' images: colour and depth, with `layers` layers each.
struct Target {
    colour: Image,
    depth: Image,
}

fn target(h: &mut Harness, layers: u32) -> Result<Target, Stop> {
    if !h.caps().multiview {
        return Err(Stop::NotSupported("multiview".into()));
    }
    Ok(Target {
        colour: prepared_layers(h, RGBA8, layers, color(BEFORE), COLOR_LAYOUT)?,
        depth: prepared_layers(h, D16, layers, depth(0.0), DEPTH_LAYOUT)?,
    })
}

/// A red quad behind a green one that overlaps it (drawn first).
fn scene() -> Vec<f32> {
    [
        quad(-0.5, -0.5, 0.0, 0.0, 0.3, GREEN),
        quad(-0.75, -0.75, -0.25, -0.25, 0.6, RED),
    ]
    .concat()
}

/// Binds `pipeline` and the scene's buffers and draws it.
fn draw_scene(h: &mut Harness, pipeline: vk::Pipeline) -> Result<impl Fn(&Recorder<'_>), Stop> {
    let vertices = scene();
    let vb = h.host_buffer_with(vk::BufferUsageFlags::VERTEX_BUFFER, &floats(&vertices))?;
    let offsets = h.host_buffer_with(vk::BufferUsageFlags::VERTEX_BUFFER, &floats(&[0.0; 2]))?;
    let count = (vertices.len() / 7) as u32;
    Ok(move |r: &Recorder<'_>| {
        r.bind_graphics(pipeline);
        r.bind_vertex_buffers(&[&vb, &offsets]);
        r.draw(count, 1, 0, 0);
    })
}

fn pipeline_desc(pass: vk::RenderPass) -> GraphicsDesc<'static> {
    let mut desc = GraphicsDesc::new(
        &shaders::MULTIVIEW_VERT,
        &shaders::MULTIVIEW_FRAG,
        pass,
        SIZE,
    );
    desc.bindings = &ATTRIBUTES;
    desc.depth = Some(vk::CompareOp::LESS);
    desc
}

/// Checks layer `layer` of the stacked image: view `layer`'s scene if it
/// is in `views`, else what it held; and the cleared rectangle if
/// `cleared`.
fn check_layer(result: &mut CaseResult, img: &[u8], layer: u32, views: u32, cleared: bool) {
    let top = layer * SIZE.1;
    if views >> layer & 1 == 0 {
        for (x, y) in [(12, 12), (20, 20), (60, 60)] {
            probe(result, img, x, top + y, unorm8(BEFORE));
        }
        return;
    }
    let blue = 0.25 * (layer + 1) as f32;
    let shift = 8 * layer;
    let red = unorm8([1.0, 0.0, blue, 1.0]);
    let green = unorm8([0.0, 1.0, blue, 1.0]);
    probe(result, img, 12 + shift, top + 12, red);
    probe(result, img, 20 + shift, top + 20, green);
    probe(result, img, 28 + shift, top + 28, green);
    probe(result, img, 60, top + 4, unorm8(CLEAR));
    if cleared {
        let (x, y, size) = CLEAR_RECT;
        probe(
            result,
            img,
            x + size / 2,
            top + y + size / 2,
            unorm8(CLEARED),
        );
        probe(result, img, x - 2, top + y + size / 2, unorm8(CLEAR));
    }
}

/// The stacked layers, checked and kept.
fn finish(h: &mut Harness, t: &Target, views: u32, cleared: bool) -> Result<CaseResult, Stop> {
    let layers = t.colour.shape.layers;
    let img = read_back_layers(h, &t.colour, COLOR_LAYOUT)?;
    let mut result = CaseResult::new();
    for layer in 0..layers {
        check_layer(&mut result, &img, layer, views, cleared);
    }
    result.keep_approximate(&format!("rgba8_{}x{}", SIZE.0, SIZE.1 * layers), img);
    Ok(result)
}

/// A render pass of one subpass with view mask `views`, into a colour
/// and a depth attachment of as many layers as views (cleared by the
/// pass); with `clear_attachments`, `vkCmdClearAttachments` clears a
/// rectangle of layer 0 before the draw, which multiview makes every
/// view's.
fn in_render_pass(
    h: &mut Harness,
    views: u32,
    clear_attachments: bool,
) -> Result<CaseResult, Stop> {
    let layers = u32::BITS - views.leading_zeros();
    let t = target(h, layers)?;
    let attachment = |format, layout| vk::AttachmentDescription {
        format,
        samples: vk::SampleCountFlags::TYPE_1,
        load_op: vk::AttachmentLoadOp::CLEAR,
        store_op: vk::AttachmentStoreOp::STORE,
        stencil_load_op: vk::AttachmentLoadOp::DONT_CARE,
        stencil_store_op: vk::AttachmentStoreOp::DONT_CARE,
        initial_layout: layout,
        final_layout: layout,
        ..Default::default()
    };
    let attachments = [
        attachment(RGBA8, COLOR_LAYOUT),
        attachment(D16, DEPTH_LAYOUT),
    ];
    let colour_ref = [vk::AttachmentReference {
        attachment: 0,
        layout: COLOR_LAYOUT,
    }];
    let depth_ref = vk::AttachmentReference {
        attachment: 1,
        layout: DEPTH_LAYOUT,
    };
    let subpasses = [vk::SubpassDescription::default()
        .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
        .color_attachments(&colour_ref)
        .depth_stencil_attachment(&depth_ref)];
    let dependencies = subpass_dependencies(0);
    let masks = [views];
    let mut multiview = vk::RenderPassMultiviewCreateInfo::default().view_masks(&masks);
    let info = vk::RenderPassCreateInfo::default()
        .attachments(&attachments)
        .subpasses(&subpasses)
        .dependencies(&dependencies)
        .push_next(&mut multiview);
    // SAFETY: the device is alive; `info` and its chain are valid for the call.
    let pass =
        unsafe { h.device().create_render_pass(&info, None) }.or_stop("vkCreateRenderPass")?;
    let pass = h.own(pass);
    let views_of = [
        h.image_view(&t.colour, vk::ImageViewType::TYPE_2D_ARRAY)?,
        h.image_view(&t.depth, vk::ImageViewType::TYPE_2D_ARRAY)?,
    ];
    // A multiview framebuffer has one layer; the views are the images'.
    let fb_info = vk::FramebufferCreateInfo::default()
        .render_pass(pass)
        .attachments(&views_of)
        .width(SIZE.0)
        .height(SIZE.1)
        .layers(1);
    // SAFETY: the pass and views are alive; `fb_info` is valid for the call.
    let fb =
        unsafe { h.device().create_framebuffer(&fb_info, None) }.or_stop("vkCreateFramebuffer")?;
    let fb = h.own(fb);
    let pipeline = h.graphics_pipeline(&pipeline_desc(pass))?;
    let draw = draw_scene(h, pipeline)?;
    let (x, y, size) = CLEAR_RECT;
    let clear = [vk::ClearAttachment {
        aspect_mask: vk::ImageAspectFlags::COLOR,
        color_attachment: 0,
        clear_value: color(CLEARED),
    }];
    let rect = [vk::ClearRect {
        rect: vk::Rect2D {
            offset: vk::Offset2D {
                x: x as i32,
                y: y as i32,
            },
            extent: vk::Extent2D {
                width: size,
                height: size,
            },
        },
        base_array_layer: 0,
        layer_count: 1,
    }];
    h.run(|r| {
        r.begin_pass(pass, fb, full(), &[color(CLEAR), depth(1.0)]);
        if clear_attachments {
            r.clear_attachments(&clear, &rect);
        }
        draw(r);
        r.end_pass();
    })?;
    finish(h, &t, views, clear_attachments)
}

/// Dynamic rendering with view mask 0b101 into 3 layers: views 0 and 2
/// are drawn and cleared, layer 1 is left as it was.
fn dynamic_rendering(h: &mut Harness) -> Result<CaseResult, Stop> {
    let views = 0b101;
    let dr = h.dynamic_rendering()?.clone();
    let t = target(h, 3)?;
    let colour_view = h.image_view(&t.colour, vk::ImageViewType::TYPE_2D_ARRAY)?;
    let depth_view = h.image_view(&t.depth, vk::ImageViewType::TYPE_2D_ARRAY)?;
    let mut desc = pipeline_desc(vk::RenderPass::null());
    desc.rendering = Some((&[RGBA8], D16));
    desc.view_mask = views;
    let pipeline = h.graphics_pipeline(&desc)?;
    let draw = draw_scene(h, pipeline)?;
    let attachment = |view, layout, clear| {
        vk::RenderingAttachmentInfo::default()
            .image_view(view)
            .image_layout(layout)
            .load_op(vk::AttachmentLoadOp::CLEAR)
            .store_op(vk::AttachmentStoreOp::STORE)
            .clear_value(clear)
    };
    let colours = [attachment(colour_view, COLOR_LAYOUT, color(CLEAR))];
    let depth_attachment = attachment(depth_view, DEPTH_LAYOUT, depth(1.0));
    let info = vk::RenderingInfo::default()
        .render_area(full())
        .layer_count(1)
        .view_mask(views)
        .color_attachments(&colours)
        .depth_attachment(&depth_attachment);
    h.run(|r| {
        // SAFETY: the command buffer is recording; the views are alive.
        unsafe { dr.begin(r.command_buffer(), &info) };
        draw(r);
        // SAFETY: the command buffer is recording inside the rendering.
        unsafe { dr.end(r.command_buffer()) };
    })?;
    finish(h, &t, views, false)
}
