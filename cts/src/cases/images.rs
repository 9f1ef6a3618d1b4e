//! Image transfers: buffer-image round trips for a format of each
//! hardware class in linear and optimal tiling (with buffer row lengths,
//! image heights and an offset that is not 64-byte aligned), copies between
//! every pair of tilings and a format reinterpretation, mip levels, array
//! layers and 3D slices, clears of colour and depth, and blits (scaling
//! with nearest and linear filtering, mirroring, format conversion).
//!
//! Blits, and copies and clears of depth or stencil, need a queue family
//! with graphics (the specification's valid usage); on a device whose
//! queue has none those cases are NotSupported.
//!
//! Every expectation is computed on the CPU: copies move bits, clears give
//! the value's conversion to the format (round to nearest), nearest blits
//! pick the texel under each destination texel's centre, linear blits
//! average within a tolerance of one unit.

use super::pseudo_random::Sequence;
use crate::case::{Case, CaseResult, Stop};
use crate::harness::{Dependency, Harness, Image, ImageShape, Recorder};
use ash::vk;

pub const CASES: &[Case] = &[
    Case {
        name: "images.round_trip_linear",
        run: round_trip_linear,
    },
    Case {
        name: "images.round_trip_optimal",
        run: round_trip_optimal,
    },
    Case {
        name: "images.round_trip_depth",
        run: round_trip_depth,
    },
    Case {
        name: "images.copy_between_tilings",
        run: copy_between_tilings,
    },
    Case {
        name: "images.subresources",
        run: subresources,
    },
    Case {
        name: "images.clears",
        run: clears,
    },
    Case {
        name: "images.clear_depth",
        run: clear_depth,
    },
    Case {
        name: "images.blits",
        run: blits,
    },
];

const LINEAR: vk::ImageTiling = vk::ImageTiling::LINEAR;
const OPTIMAL: vk::ImageTiling = vk::ImageTiling::OPTIMAL;
const UNDEFINED: vk::ImageLayout = vk::ImageLayout::UNDEFINED;
const DST: vk::ImageLayout = vk::ImageLayout::TRANSFER_DST_OPTIMAL;
const SRC: vk::ImageLayout = vk::ImageLayout::TRANSFER_SRC_OPTIMAL;
const COLOR: vk::ImageAspectFlags = vk::ImageAspectFlags::COLOR;

/// How random bytes are made valid texels: floats lose their NaNs and
/// infinities (a copy moves bits, but a NaN's are not all defined).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bits {
    Raw,
    Half,
    Float,
}

/// A format the cases use: its texel block's bytes and size.
#[derive(Clone, Copy, Debug)]
struct Texel {
    format: vk::Format,
    bytes: u32,
    block: [u32; 2],
    bits: Bits,
}

const fn t(format: vk::Format, bytes: u32, bits: Bits) -> Texel {
    Texel {
        format,
        bytes,
        block: [1, 1],
        bits,
    }
}

const BC1: Texel = Texel {
    format: vk::Format::BC1_RGB_UNORM_BLOCK,
    bytes: 8,
    block: [4, 4],
    bits: Bits::Raw,
};

/// One format of each class the 2D engine copies in: 8, 16, 32, 64 and
/// 128-bit texels; UNORM8, sRGB, SNORM, swapped, 16- and 32-bit float,
/// integer and packed 10-bit formats.
const COLOR_FORMATS: &[Texel] = &[
    t(vk::Format::R8_UNORM, 1, Bits::Raw),
    t(vk::Format::R8G8_UINT, 2, Bits::Raw),
    t(vk::Format::R16_SFLOAT, 2, Bits::Half),
    t(vk::Format::R5G6B5_UNORM_PACK16, 2, Bits::Raw),
    t(vk::Format::R32_UINT, 4, Bits::Raw),
    t(vk::Format::R8G8B8A8_SRGB, 4, Bits::Raw),
    t(vk::Format::R8G8B8A8_SNORM, 4, Bits::Raw),
    t(vk::Format::B8G8R8A8_UNORM, 4, Bits::Raw),
    t(vk::Format::A2B10G10R10_UINT_PACK32, 4, Bits::Raw),
    t(vk::Format::R16G16B16A16_SFLOAT, 8, Bits::Half),
    t(vk::Format::R32G32_SFLOAT, 8, Bits::Float),
    t(vk::Format::R32G32B32A32_UINT, 16, Bits::Raw),
];

/// A colour format only optimal tiling must support for transfers.
const OPTIMAL_ONLY: &[Texel] = &[BC1];

/// A depth format every device copies in optimal tiling.
const DEPTH: Texel = t(vk::Format::D16_UNORM, 2, Bits::Raw);

/// `NotSupported` unless the queue has graphics, which `what` needs.
fn graphics_queue(h: &Harness, what: &str) -> Result<(), Stop> {
    if h.caps().graphics_queue {
        Ok(())
    } else {
        Err(Stop::NotSupported(format!(
            "{what} need a queue family with graphics"
        )))
    }
}

fn texels(seed: u64, n: usize, texel: &Texel) -> Vec<u8> {
    let mut seq = Sequence::new(seed);
    let mut bytes: Vec<u8> = (0..n).map(|_| seq.next_u32() as u8).collect();
    match texel.bits {
        Bits::Raw => {}
        // Clearing the exponent's top bit keeps every value finite.
        Bits::Half => bytes.chunks_exact_mut(2).for_each(|c| c[1] &= !0x40),
        Bits::Float => bytes.chunks_exact_mut(4).for_each(|c| c[3] &= !0x40),
    }
    bytes
}

/// A buffer-image region of the whole of `level` with tight rows.
fn whole(image: &Image, level: u32, offset: u64) -> vk::BufferImageCopy {
    let [w, h, d] = image.shape.extent;
    vk::BufferImageCopy {
        buffer_offset: offset,
        buffer_row_length: 0,
        buffer_image_height: 0,
        image_subresource: image.layers(image.aspect, level, 0, image.shape.layers),
        image_offset: vk::Offset3D::default(),
        image_extent: vk::Extent3D {
            width: (w >> level).max(1),
            height: (h >> level).max(1),
            depth: (d >> level).max(1),
        },
    }
}

/// Bytes of a tightly packed `w` x `h` region of `texel`.
fn tight(texel: &Texel, w: u32, h: u32) -> usize {
    (w.div_ceil(texel.block[0]) * h.div_ceil(texel.block[1]) * texel.bytes) as usize
}

/// Uploads `bytes` (tightly packed) to every layer of level 0 of a fresh
/// image, in its own submission, leaving it in TRANSFER_SRC_OPTIMAL.
fn filled(h: &mut Harness, shape: ImageShape, bytes: &[u8]) -> Result<Image, Stop> {
    let image = h.image(shape)?;
    let staging = h.host_buffer_with(vk::BufferUsageFlags::TRANSFER_SRC, bytes)?;
    h.run(|r| {
        r.transition(&image, UNDEFINED, DST);
        r.buffer_to_image(&staging, &image, &[whole(&image, 0, 0)]);
        r.transition(&image, DST, SRC);
    })?;
    Ok(image)
}

/// Reads level `level` of an image in TRANSFER_SRC_OPTIMAL back tightly.
fn read_back(h: &mut Harness, image: &Image, level: u32, bytes: usize) -> Result<Vec<u8>, Stop> {
    let out = h.host_buffer(bytes as u64, vk::BufferUsageFlags::TRANSFER_DST)?;
    h.run(|r| {
        r.image_to_buffer(image, &out, &[whole(image, level, 0)]);
        r.barrier(Dependency::TO_HOST);
    })?;
    h.read(&out)
}

/// Uploads with a row length of 40 texels, an image height of 20 rows and
/// a base 64 + one texel into the buffer, then reads back tightly.
fn round_trip(
    h: &mut Harness,
    tiling: vk::ImageTiling,
    formats: &[Texel],
) -> Result<CaseResult, Stop> {
    let (w, ht) = (37, 19);
    let mut result = CaseResult::new();
    for (i, texel) in formats.iter().enumerate() {
        let image = h.image(ImageShape::two_d(texel.format, w, ht, tiling))?;
        let [bw, bh] = texel.block;
        let (row, rows) = (40u32, 20u32);
        let pitch = (row / bw * texel.bytes) as usize;
        // Off the 64-byte alignment by a texel (and by 4 bytes at least,
        // which depth formats need).
        let offset = 64 + texel.bytes.max(4) as usize;
        let size = offset + pitch * (rows / bh) as usize;
        let src_bytes = texels(100 + i as u64, size, texel);
        let src = h.host_buffer_with(vk::BufferUsageFlags::TRANSFER_SRC, &src_bytes)?;
        let out_size = tight(texel, w, ht);
        let out = h.host_buffer(out_size as u64, vk::BufferUsageFlags::TRANSFER_DST)?;
        let upload = vk::BufferImageCopy {
            buffer_offset: offset as u64,
            buffer_row_length: row,
            buffer_image_height: rows,
            ..whole(&image, 0, 0)
        };
        h.run(|r| {
            r.transition(&image, UNDEFINED, DST);
            r.buffer_to_image(&src, &image, &[upload]);
            r.transition(&image, DST, SRC);
            r.image_to_buffer(&image, &out, &[whole(&image, 0, 0)]);
            r.barrier(Dependency::TO_HOST);
        })?;
        let row_bytes = (w.div_ceil(bw) * texel.bytes) as usize;
        let want: Vec<u8> = (0..ht.div_ceil(bh) as usize)
            .flat_map(|y| src_bytes[offset + y * pitch..][..row_bytes].iter().copied())
            .collect();
        result.check(&format!("{:?}", texel.format), &h.read(&out)?, &want);
    }
    Ok(result)
}

fn round_trip_linear(h: &mut Harness) -> Result<CaseResult, Stop> {
    round_trip(h, LINEAR, COLOR_FORMATS)
}

fn round_trip_optimal(h: &mut Harness) -> Result<CaseResult, Stop> {
    round_trip(h, OPTIMAL, &[COLOR_FORMATS, OPTIMAL_ONLY].concat())
}

fn round_trip_depth(h: &mut Harness) -> Result<CaseResult, Stop> {
    graphics_queue(h, "copies of depth")?;
    round_trip(h, OPTIMAL, &[DEPTH])
}

/// Replaces a `w` x `h` block rectangle of a tightly packed image of
/// `width` blocks with one from another.
#[allow(clippy::too_many_arguments)]
fn copy_rect(
    dst: &mut [u8],
    dst_width: u32,
    src: &[u8],
    src_width: u32,
    bytes: u32,
    [sx, sy]: [u32; 2],
    [dx, dy]: [u32; 2],
    [w, h]: [u32; 2],
) {
    let b = bytes as usize;
    for y in 0..h {
        let s = ((sy + y) * src_width + sx) as usize * b;
        let d = ((dy + y) * dst_width + dx) as usize * b;
        dst[d..d + w as usize * b].copy_from_slice(&src[s..s + w as usize * b]);
    }
}

/// A 16x8 rectangle from (4, 4) of one 32x16 image to (8, 0) of another,
/// for each pair of tilings; then an R32_UINT image copied into an
/// RGBA8 one (the same bits).
fn copy_between_tilings(h: &mut Harness) -> Result<CaseResult, Stop> {
    let (w, ht) = (32, 16);
    let mut result = CaseResult::new();
    let formats = [
        (t(vk::Format::R8G8B8A8_UNORM, 4, Bits::Raw), true),
        (t(vk::Format::R32_UINT, 4, Bits::Raw), true),
        (t(vk::Format::R16G16_SFLOAT, 4, Bits::Half), true),
        (BC1, false),
    ];
    for (i, (texel, linear_too)) in formats.iter().enumerate() {
        let tilings: &[(vk::ImageTiling, vk::ImageTiling)] = if *linear_too {
            &[
                (LINEAR, OPTIMAL),
                (OPTIMAL, OPTIMAL),
                (OPTIMAL, LINEAR),
                (LINEAR, LINEAR),
            ]
        } else {
            &[(OPTIMAL, OPTIMAL)]
        };
        for (j, &(st, dt)) in tilings.iter().enumerate() {
            let n = tight(texel, w, ht);
            let a = texels(300 + (i * 4 + j) as u64, n, texel);
            let b = texels(400 + (i * 4 + j) as u64, n, texel);
            let src = filled(h, ImageShape::two_d(texel.format, w, ht, st), &a)?;
            let dst = filled(h, ImageShape::two_d(texel.format, w, ht, dt), &b)?;
            let region = vk::ImageCopy {
                src_subresource: src.layers(COLOR, 0, 0, 1),
                src_offset: vk::Offset3D { x: 4, y: 4, z: 0 },
                dst_subresource: dst.layers(COLOR, 0, 0, 1),
                dst_offset: vk::Offset3D { x: 8, y: 0, z: 0 },
                extent: vk::Extent3D {
                    width: 16,
                    height: 8,
                    depth: 1,
                },
            };
            h.run(|r| {
                r.transition(&dst, SRC, DST);
                r.image_to_image(&src, &dst, &[region]);
                r.transition(&dst, DST, SRC);
            })?;
            let mut want = b.clone();
            let [bw, bh] = texel.block;
            copy_rect(
                &mut want,
                w / bw,
                &a,
                w / bw,
                texel.bytes,
                [4 / bw, 4 / bh],
                [8 / bw, 0],
                [16 / bw, 8 / bh],
            );
            let got = read_back(h, &dst, 0, n)?;
            result.check(&format!("{:?}_{st:?}_to_{dt:?}", texel.format), &got, &want);
        }
    }
    let words = texels(
        500,
        (w * ht * 4) as usize,
        &t(vk::Format::R32_UINT, 4, Bits::Raw),
    );
    let src = filled(
        h,
        ImageShape::two_d(vk::Format::R32_UINT, w, ht, OPTIMAL),
        &words,
    )?;
    let zeros = vec![0u8; words.len()];
    let dst = filled(
        h,
        ImageShape::two_d(vk::Format::R8G8B8A8_UNORM, w, ht, OPTIMAL),
        &zeros,
    )?;
    let region = vk::ImageCopy {
        src_subresource: src.layers(COLOR, 0, 0, 1),
        src_offset: vk::Offset3D::default(),
        dst_subresource: dst.layers(COLOR, 0, 0, 1),
        dst_offset: vk::Offset3D::default(),
        extent: vk::Extent3D {
            width: w,
            height: ht,
            depth: 1,
        },
    };
    h.run(|r| {
        r.transition(&dst, SRC, DST);
        r.image_to_image(&src, &dst, &[region]);
        r.transition(&dst, DST, SRC);
    })?;
    let got = read_back(h, &dst, 0, words.len())?;
    result.check("R32_UINT_as_R8G8B8A8_UNORM", &got, &words);
    Ok(result)
}

/// Every level and layer of a 20x12 RGBA8_UINT array image (4 levels, 3
/// layers) uploaded from one buffer region each and read back the same
/// way; a 16x8x4 R32_UINT 3D image's two levels likewise.
fn subresources(h: &mut Harness) -> Result<CaseResult, Stop> {
    let mut result = CaseResult::new();
    for (shape, texel) in [
        (
            ImageShape {
                image_type: vk::ImageType::TYPE_2D,
                format: vk::Format::R8G8B8A8_UINT,
                extent: [20, 12, 1],
                levels: 4,
                layers: 3,
                tiling: OPTIMAL,
            },
            t(vk::Format::R8G8B8A8_UINT, 4, Bits::Raw),
        ),
        (
            ImageShape {
                image_type: vk::ImageType::TYPE_3D,
                format: vk::Format::R32_UINT,
                extent: [16, 8, 4],
                levels: 2,
                layers: 1,
                tiling: OPTIMAL,
            },
            t(vk::Format::R32_UINT, 4, Bits::Raw),
        ),
    ] {
        let image = h.image(shape)?;
        let mut regions = Vec::new();
        let mut offset = 0u64;
        for level in 0..shape.levels {
            for layer in 0..shape.layers {
                let mut r = whole(&image, level, offset);
                r.image_subresource = image.layers(COLOR, level, layer, 1);
                let e = r.image_extent;
                offset += u64::from(e.width * e.height * e.depth * texel.bytes);
                regions.push(r);
            }
        }
        let bytes = texels(600 + u64::from(shape.levels), offset as usize, &texel);
        let src = h.host_buffer_with(vk::BufferUsageFlags::TRANSFER_SRC, &bytes)?;
        let out = h.host_buffer(offset, vk::BufferUsageFlags::TRANSFER_DST)?;
        h.run(|r: &Recorder<'_>| {
            r.transition(&image, UNDEFINED, DST);
            r.buffer_to_image(&src, &image, &regions);
            r.transition(&image, DST, SRC);
            r.image_to_buffer(&image, &out, &regions);
            r.barrier(Dependency::TO_HOST);
        })?;
        result.check(&format!("{:?}", shape.image_type), &h.read(&out)?, &bytes);
    }
    Ok(result)
}

/// f32 to unorm8 as the specification converts (round to nearest), in
/// f32 arithmetic.
fn unorm8(v: f32) -> u8 {
    (v.clamp(0.0, 1.0) * 255.0).round_ties_even() as u8
}

/// Clears of colour formats of each kind, one level of a two-level image
/// cleared and the other left as uploaded.
fn clears(h: &mut Harness) -> Result<CaseResult, Stop> {
    let mut result = CaseResult::new();
    let (w, ht) = (16, 8);
    // The level the clear leaves alone is uploaded with finite floats
    // (NaNs' bits are not all kept by every copy path).
    let cases: [(vk::Format, u32, vk::ClearColorValue, Vec<u8>); 4] = [
        (
            vk::Format::R8G8B8A8_UNORM,
            4,
            vk::ClearColorValue {
                float32: [0.1, 0.2, 0.3, 1.0],
            },
            vec![unorm8(0.1), unorm8(0.2), unorm8(0.3), 255],
        ),
        (
            vk::Format::R32G32B32A32_SFLOAT,
            16,
            vk::ClearColorValue {
                float32: [1.5, -2.0, 0.25, 1e10],
            },
            [1.5f32, -2.0, 0.25, 1e10]
                .iter()
                .flat_map(|f| f.to_le_bytes())
                .collect(),
        ),
        (
            vk::Format::R16G16_SINT,
            4,
            vk::ClearColorValue {
                int32: [-5, 300, 0, 0],
            },
            [(-5i16).to_le_bytes(), 300i16.to_le_bytes()].concat(),
        ),
        (
            vk::Format::R16G16B16A16_SFLOAT,
            8,
            vk::ClearColorValue {
                float32: [0.5, 1.0, -2.0, 65504.0],
            },
            // The halves of 0.5, 1, -2 and 65504.
            [0x3800u16, 0x3c00, 0xc000, 0x7bff]
                .iter()
                .flat_map(|v| v.to_le_bytes())
                .collect(),
        ),
    ];
    for (i, (format, bytes, value, texel_bytes)) in cases.into_iter().enumerate() {
        let shape = ImageShape {
            levels: 2,
            ..ImageShape::two_d(format, w, ht, OPTIMAL)
        };
        let image = h.image(shape)?;
        let n0 = (w * ht * bytes) as usize;
        let bits = match format {
            vk::Format::R32G32B32A32_SFLOAT => Bits::Float,
            vk::Format::R16G16B16A16_SFLOAT => Bits::Half,
            _ => Bits::Raw,
        };
        let level0 = texels(700 + i as u64, n0, &t(format, bytes, bits));
        let staging = h.host_buffer_with(vk::BufferUsageFlags::TRANSFER_SRC, &level0)?;
        let range = vk::ImageSubresourceRange {
            base_mip_level: 1,
            level_count: 1,
            ..image.range()
        };
        h.run(|r| {
            r.transition(&image, UNDEFINED, DST);
            r.buffer_to_image(&staging, &image, &[whole(&image, 0, 0)]);
            r.clear_color(&image, value, &[range]);
            r.transition(&image, DST, SRC);
        })?;
        let got0 = read_back(h, &image, 0, n0)?;
        result.check(&format!("{format:?}_level0"), &got0, &level0);
        let n1 = ((w / 2) * (ht / 2)) as usize;
        let got1 = read_back(h, &image, 1, n1 * bytes as usize)?;
        result.check(
            &format!("{format:?}_level1"),
            &got1,
            &texel_bytes.repeat(n1),
        );
    }
    Ok(result)
}

/// A D16 image cleared to 0.25.
fn clear_depth(h: &mut Harness) -> Result<CaseResult, Stop> {
    graphics_queue(h, "depth clears")?;
    let mut result = CaseResult::new();
    let (w, ht) = (16, 8);
    let depth = h.image(ImageShape::two_d(vk::Format::D16_UNORM, w, ht, OPTIMAL))?;
    let value = vk::ClearDepthStencilValue {
        depth: 0.25,
        stencil: 0,
    };
    h.run(|r| {
        r.transition(&depth, UNDEFINED, DST);
        r.clear_depth_stencil(&depth, value, &[depth.range()]);
        r.transition(&depth, DST, SRC);
    })?;
    let got = read_back(h, &depth, 0, (w * ht * 2) as usize)?;
    // 0.25 * 65535 = 16383.75: 16384.
    result.check(
        "D16_UNORM",
        &got,
        &16384u16.to_le_bytes().repeat((w * ht) as usize),
    );
    Ok(result)
}

fn half_to_f32(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1f);
    let mant = f32::from(h & 0x3ff);
    sign * match exp {
        0 => mant * 2f32.powi(-24),
        _ => (1.0 + mant / 1024.0) * 2f32.powi(exp - 15),
    }
}

/// A blit of `src` (rectangle `s`) to `dst` (rectangle `d`), read back.
fn blit_read(
    h: &mut Harness,
    src: &Image,
    dst_shape: ImageShape,
    s: [vk::Offset3D; 2],
    d: [vk::Offset3D; 2],
    filter: vk::Filter,
    bytes: usize,
) -> Result<Vec<u8>, Stop> {
    let dst = h.image(dst_shape)?;
    let region = vk::ImageBlit {
        src_subresource: src.layers(COLOR, 0, 0, 1),
        src_offsets: s,
        dst_subresource: dst.layers(COLOR, 0, 0, 1),
        dst_offsets: d,
    };
    h.run(|r| {
        r.transition(&dst, UNDEFINED, DST);
        r.blit(src, &dst, &[region], filter);
        r.transition(&dst, DST, SRC);
    })?;
    read_back(h, &dst, 0, bytes)
}

fn corner(x: i32, y: i32) -> vk::Offset3D {
    vk::Offset3D { x, y, z: 0 }
}

/// A 16x16 RGBA8 image blitted: halved (nearest: the texel at 2x+1 under
/// each centre; linear: the 2x2 average within 1), doubled (nearest),
/// mirrored in x, and converted to RGBA16F (within 1e-3).
fn blits(h: &mut Harness) -> Result<CaseResult, Stop> {
    graphics_queue(h, "blits")?;
    let rgba8 = t(vk::Format::R8G8B8A8_UNORM, 4, Bits::Raw);
    let pixels = texels(800, 16 * 16 * 4, &rgba8);
    let src = filled(h, ImageShape::two_d(rgba8.format, 16, 16, OPTIMAL), &pixels)?;
    let at = |x: u32, y: u32| &pixels[((y * 16 + x) * 4) as usize..][..4];
    let full = [corner(0, 0), vk::Offset3D { x: 16, y: 16, z: 1 }];
    let half = [corner(0, 0), vk::Offset3D { x: 8, y: 8, z: 1 }];
    let small = ImageShape::two_d(rgba8.format, 8, 8, OPTIMAL);
    let big = ImageShape::two_d(rgba8.format, 16, 16, OPTIMAL);
    let mut result = CaseResult::new();

    let got = blit_read(h, &src, small, full, half, vk::Filter::NEAREST, 256)?;
    let want: Vec<u8> = (0..8)
        .flat_map(|y| (0..8).flat_map(move |x| [x, y]))
        .collect::<Vec<_>>()
        .chunks(2)
        .flat_map(|c| at(2 * c[0] + 1, 2 * c[1] + 1).to_vec())
        .collect();
    result.check("halved_nearest", &got, &want);

    let got = blit_read(h, &src, small, full, half, vk::Filter::LINEAR, 256)?;
    let mut want = Vec::new();
    for y in 0..8 {
        for x in 0..8 {
            for c in 0..4 {
                let sum: u32 = [(0, 0), (1, 0), (0, 1), (1, 1)]
                    .iter()
                    .map(|(dx, dy)| u32::from(at(2 * x + dx, 2 * y + dy)[c]))
                    .sum();
                want.push(f64::from(sum) / 4.0);
            }
        }
    }
    let got_f: Vec<f32> = got.iter().map(|&b| f32::from(b)).collect();
    result.check_within("halved_linear", &got_f, &want, &vec![1.0; want.len()]);

    let small_src = filled(h, small, &pixels[..256])?;
    let small_at = |x: u32, y: u32| &pixels[((y * 8 + x) * 4) as usize..][..4];
    let got = blit_read(h, &small_src, big, half, full, vk::Filter::NEAREST, 1024)?;
    let mut want = Vec::new();
    for y in 0..16 {
        for x in 0..16 {
            want.extend_from_slice(small_at(x / 2, y / 2));
        }
    }
    result.check("doubled_nearest", &got, &want);

    let mirrored = [
        vk::Offset3D { x: 16, y: 0, z: 0 },
        vk::Offset3D { x: 0, y: 16, z: 1 },
    ];
    let got = blit_read(h, &src, big, full, mirrored, vk::Filter::NEAREST, 1024)?;
    let mut want = Vec::new();
    for y in 0..16 {
        for x in 0..16 {
            want.extend_from_slice(at(15 - x, y));
        }
    }
    result.check("mirrored_x", &got, &want);

    let f16 = ImageShape::two_d(vk::Format::R16G16B16A16_SFLOAT, 16, 16, OPTIMAL);
    let got = blit_read(h, &src, f16, full, full, vk::Filter::NEAREST, 2048)?;
    let got_f: Vec<f32> = got
        .chunks_exact(2)
        .map(|c| half_to_f32(u16::from_le_bytes([c[0], c[1]])))
        .collect();
    let want: Vec<f64> = pixels.iter().map(|&b| f64::from(b) / 255.0).collect();
    result.check_within("to_rgba16f", &got_f, &want, &vec![1e-3; want.len()]);
    Ok(result)
}
