//! Render passes without draws: load-op clears of a render area, clears of
//! attachments inside a pass, several subpasses and a depth attachment.
//! The expected images are worked out here; every output is exact.

use crate::case::{Case, CaseResult, Stop};
use crate::harness::{Dependency, Harness, Image, ImageShape, PassAttachment};
use ash::vk;

pub const CASES: &[Case] = &[
    Case {
        name: "render_passes.load_clear_area",
        run: load_clear_area,
    },
    Case {
        name: "render_passes.clear_attachments",
        run: clear_attachments,
    },
    Case {
        name: "render_passes.subpasses_and_depth",
        run: |h| subpasses_and_depth(h, false),
    },
    Case {
        name: "render_passes.subpasses_and_depth_2",
        run: |h| subpasses_and_depth(h, true),
    },
];

const SIZE: (u32, u32) = (32, 16);
const RGBA8: vk::Format = vk::Format::R8G8B8A8_UNORM;
const D16: vk::Format = vk::Format::D16_UNORM;
const DST: vk::ImageLayout = vk::ImageLayout::TRANSFER_DST_OPTIMAL;
const SRC: vk::ImageLayout = vk::ImageLayout::TRANSFER_SRC_OPTIMAL;
const COLOR_LAYOUT: vk::ImageLayout = vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL;
const DEPTH_LAYOUT: vk::ImageLayout = vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL;

fn rect(x: i32, y: i32, width: u32, height: u32) -> vk::Rect2D {
    vk::Rect2D {
        offset: vk::Offset2D { x, y },
        extent: vk::Extent2D { width, height },
    }
}

pub(crate) fn color(c: [f32; 4]) -> vk::ClearValue {
    vk::ClearValue {
        color: vk::ClearColorValue { float32: c },
    }
}

pub(crate) fn depth(d: f32) -> vk::ClearValue {
    vk::ClearValue {
        depth_stencil: vk::ClearDepthStencilValue {
            depth: d,
            stencil: 0,
        },
    }
}

/// An attachment image of `format`, cleared by the transfer engine to
/// `initial` and left in `layout`.
fn prepared(
    h: &mut Harness,
    format: vk::Format,
    initial: vk::ClearValue,
    layout: vk::ImageLayout,
) -> Result<Image, Stop> {
    prepared_of_size(h, format, SIZE, initial, layout)
}

/// The same, `size` texels.
pub(crate) fn prepared_of_size(
    h: &mut Harness,
    format: vk::Format,
    size: (u32, u32),
    initial: vk::ClearValue,
    layout: vk::ImageLayout,
) -> Result<Image, Stop> {
    let shape = ImageShape::two_d(format, size.0, size.1, vk::ImageTiling::OPTIMAL);
    prepared_of_shape(h, shape, initial, layout)
}

/// An attachment image of `shape`, every level and layer cleared by the
/// transfer engine to `initial` and left in `layout`.
fn prepared_of_shape(
    h: &mut Harness,
    shape: ImageShape,
    initial: vk::ClearValue,
    layout: vk::ImageLayout,
) -> Result<Image, Stop> {
    let format = shape.format;
    let image = h.attachment_image(shape)?;
    h.run(|r| {
        r.transition(&image, vk::ImageLayout::UNDEFINED, DST);
        if format == D16 {
            // SAFETY: reading the union as the value it was built as.
            r.clear_depth_stencil(&image, unsafe { initial.depth_stencil }, &[image.range()]);
        } else {
            // SAFETY: as above.
            r.clear_color(&image, unsafe { initial.color }, &[image.range()]);
        }
        r.relayout(&image, DST, layout);
    })?;
    Ok(image)
}

/// A `SIZE`-sized (draws' 64x64) attachment image of `format` with
/// `layers` layers, every layer cleared to `initial` and left in `layout`.
pub(crate) fn prepared_layers(
    h: &mut Harness,
    format: vk::Format,
    layers: u32,
    initial: vk::ClearValue,
    layout: vk::ImageLayout,
) -> Result<Image, Stop> {
    let (w, hgt) = super::draws::SIZE;
    let mut shape = ImageShape::two_d(format, w, hgt, vk::ImageTiling::OPTIMAL);
    shape.layers = layers;
    prepared_of_shape(h, shape, initial, layout)
}

/// Every layer of a colour image of 4-byte texels, read after the pass
/// (in `layout`), stacked: layer 0's rows, then layer 1's, ...
pub(crate) fn read_back_layers(
    h: &mut Harness,
    image: &Image,
    layout: vk::ImageLayout,
) -> Result<Vec<u8>, Stop> {
    let [width, height, _] = image.shape.extent;
    let layer_bytes = u64::from(width * height * 4);
    let layers = image.shape.layers;
    let out = h.host_buffer(
        layer_bytes * u64::from(layers),
        vk::BufferUsageFlags::TRANSFER_DST,
    )?;
    let regions: Vec<vk::BufferImageCopy> = (0..layers)
        .map(|l| vk::BufferImageCopy {
            buffer_offset: layer_bytes * u64::from(l),
            image_subresource: image.layers(image.aspect, 0, l, 1),
            ..image.whole_copy()
        })
        .collect();
    h.run(|r| {
        r.relayout(image, layout, SRC);
        r.image_to_buffer(image, &out, &regions);
        r.barrier(Dependency::TO_HOST);
    })?;
    h.read(&out)
}

/// The image's bytes, tightly packed, read after the pass (in `layout`).
pub(crate) fn read_back(
    h: &mut Harness,
    image: &Image,
    layout: vk::ImageLayout,
    texel: u32,
) -> Result<Vec<u8>, Stop> {
    let [width, height, _] = image.shape.extent;
    let bytes = u64::from(width * height * texel);
    let out = h.host_buffer(bytes, vk::BufferUsageFlags::TRANSFER_DST)?;
    let region = image.whole_copy();
    h.run(|r| {
        r.relayout(image, layout, SRC);
        r.image_to_buffer(image, &out, &[region]);
        r.barrier(Dependency::TO_HOST);
    })?;
    h.read(&out)
}

/// The expected image: `outside` everywhere but inside each of `rects`
/// (later ones over earlier ones), where it is the rect's texel.
fn expected(outside: &[u8], rects: &[(vk::Rect2D, &[u8])]) -> Vec<u8> {
    let mut out = Vec::new();
    for y in 0..SIZE.1 as i32 {
        for x in 0..SIZE.0 as i32 {
            let mut texel = outside;
            for (r, t) in rects {
                let inside = x >= r.offset.x
                    && y >= r.offset.y
                    && x < r.offset.x + r.extent.width as i32
                    && y < r.offset.y + r.extent.height as i32;
                if inside {
                    texel = t;
                }
            }
            out.extend_from_slice(texel);
        }
    }
    out
}

const BLUE: [f32; 4] = [0.0, 0.0, 1.0, 1.0];
const BLUE8: [u8; 4] = [0, 0, 255, 255];
/// (1, 0.5, 0.25, 1) in UNORM8: 0.5 * 255 = 127.5 rounds to 128, 0.25 *
/// 255 = 63.75 to 64.
const ORANGE: [f32; 4] = [1.0, 0.5, 0.25, 1.0];
const ORANGE8: [u8; 4] = [255, 128, 64, 255];
const GREEN: [f32; 4] = [0.0, 1.0, 0.0, 1.0];
const GREEN8: [u8; 4] = [0, 255, 0, 255];

/// A pass clearing on load within a render area of (4, 2) 20x10: the rest
/// of the attachment keeps what was there.
fn load_clear_area(h: &mut Harness) -> Result<CaseResult, Stop> {
    let image = prepared(h, RGBA8, color(BLUE), COLOR_LAYOUT)?;
    let attachments = [PassAttachment {
        image,
        load: vk::AttachmentLoadOp::CLEAR,
        layout: COLOR_LAYOUT,
    }];
    let pass = h.render_pass(&attachments, &[&[0]], &[None], false)?;
    let fb = h.framebuffer(pass, &attachments)?;
    let area = rect(4, 2, 20, 10);
    h.run(|r| {
        r.begin_pass(pass, fb, area, &[color(ORANGE)]);
        r.end_pass();
    })?;
    let got = read_back(h, &image, COLOR_LAYOUT, 4)?;
    let mut result = CaseResult::new();
    result.check("rgba8", &got, &expected(&BLUE8, &[(area, &ORANGE8)]));
    Ok(result)
}

/// vkCmdClearAttachments inside a pass that loads: green in two
/// rectangles, then orange in a third over part of the first.
fn clear_attachments(h: &mut Harness) -> Result<CaseResult, Stop> {
    let image = prepared(h, RGBA8, color(BLUE), COLOR_LAYOUT)?;
    let attachments = [PassAttachment {
        image,
        load: vk::AttachmentLoadOp::LOAD,
        layout: COLOR_LAYOUT,
    }];
    let pass = h.render_pass(&attachments, &[&[0]], &[None], false)?;
    let fb = h.framebuffer(pass, &attachments)?;
    let (a, b) = (rect(0, 0, 8, 4), rect(20, 10, 12, 6));
    h.run(|r| {
        r.begin_pass(pass, fb, rect(0, 0, SIZE.0, SIZE.1), &[]);
        r.clear_attachments(
            &[vk::ClearAttachment {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                color_attachment: 0,
                clear_value: color(GREEN),
            }],
            &[clear_rect(a), clear_rect(b)],
        );
        r.clear_attachments(
            &[vk::ClearAttachment {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                color_attachment: 0,
                clear_value: color(ORANGE),
            }],
            &[clear_rect(rect(4, 2, 8, 4))],
        );
        r.end_pass();
    })?;
    let got = read_back(h, &image, COLOR_LAYOUT, 4)?;
    let want = expected(
        &BLUE8,
        &[(a, &GREEN8), (b, &GREEN8), (rect(4, 2, 8, 4), &ORANGE8)],
    );
    let mut result = CaseResult::new();
    result.check("rgba8", &got, &want);
    Ok(result)
}

fn clear_rect(rect: vk::Rect2D) -> vk::ClearRect {
    vk::ClearRect {
        rect,
        base_array_layer: 0,
        layer_count: 1,
    }
}

/// Two subpasses: the first renders to colour attachment 0, the second to
/// attachment 1 and a D16 depth attachment, each cleared on load (the
/// second's first use is in subpass 1), and the depth partly cleared again
/// inside subpass 1 to 1.0. `version2`: the pass is created and recorded
/// through vkCreateRenderPass2 and the `*2` commands.
fn subpasses_and_depth(h: &mut Harness, version2: bool) -> Result<CaseResult, Stop> {
    let pass2 = if version2 {
        Some(h.render_pass2()?.clone())
    } else {
        None
    };
    let c0 = prepared(h, RGBA8, color(BLUE), COLOR_LAYOUT)?;
    let c1 = prepared(h, RGBA8, color(BLUE), COLOR_LAYOUT)?;
    let d = prepared(h, D16, depth(0.0), DEPTH_LAYOUT)?;
    let clear = vk::AttachmentLoadOp::CLEAR;
    let attachments = [
        PassAttachment {
            image: c0,
            load: clear,
            layout: COLOR_LAYOUT,
        },
        PassAttachment {
            image: c1,
            load: clear,
            layout: COLOR_LAYOUT,
        },
        PassAttachment {
            image: d,
            load: clear,
            layout: DEPTH_LAYOUT,
        },
    ];
    let pass = h.render_pass(&attachments, &[&[0], &[1]], &[None, Some(2)], version2)?;
    let fb = h.framebuffer(pass, &attachments)?;
    let depth_rect = rect(8, 4, 16, 8);
    let clears = [color(ORANGE), color(GREEN), depth(0.25)];
    h.run(|r| {
        let area = rect(0, 0, SIZE.0, SIZE.1);
        match &pass2 {
            Some(p2) => {
                let info = vk::RenderPassBeginInfo::default()
                    .render_pass(pass)
                    .framebuffer(fb)
                    .render_area(area)
                    .clear_values(&clears);
                p2.begin(r.command_buffer(), &info);
                p2.next(r.command_buffer());
            }
            None => {
                r.begin_pass(pass, fb, area, &clears);
                r.next_subpass();
            }
        }
        r.clear_attachments(
            &[vk::ClearAttachment {
                aspect_mask: vk::ImageAspectFlags::DEPTH,
                color_attachment: 0,
                clear_value: depth(1.0),
            }],
            &[clear_rect(depth_rect)],
        );
        match &pass2 {
            Some(p2) => p2.end(r.command_buffer()),
            None => r.end_pass(),
        }
    })?;
    let mut result = CaseResult::new();
    let got0 = read_back(h, &c0, COLOR_LAYOUT, 4)?;
    result.check("color0", &got0, &expected(&ORANGE8, &[]));
    let got1 = read_back(h, &c1, COLOR_LAYOUT, 4)?;
    result.check("color1", &got1, &expected(&GREEN8, &[]));
    let got_d = read_back(h, &d, DEPTH_LAYOUT, 2)?;
    // D16: 0.25 * 65535 = 16383.75 rounds to 16384; 1.0 is 65535.
    let want_d = expected(
        &16384u16.to_le_bytes(),
        &[(depth_rect, &65535u16.to_le_bytes())],
    );
    result.check("depth", &got_d, &want_d);
    Ok(result)
}
