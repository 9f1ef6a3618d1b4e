//! The 2D engine state Parsnip's image copies and clears program, checked
//! blit by blit against Turnip's for the same operations: the `mip_lod`
//! workload's upload of an 8x8 RGBA8 texture with 4 levels from a staging
//! buffer (one region per level at offsets 0, 256, 320, 336), the
//! `storage_image` workload's 16x16 R32_UINT and RGBA8 uploads and
//! readbacks (UBWC on a740), and the triangle's solid clear of its 64x64
//! UBWC attachment and its readback, on a660 (row-by-row blits for 32-byte
//! rows) and a740 (whole regions, the start texel in TPL1_2D_SRC_CNTL).
//!
//! Each CP_BLIT in the traces' decodes lists the registers it runs with;
//! the same registers are read from the stream Parsnip records, with
//! addresses taken relative to the image and the buffer.

mod common;

use std::collections::HashMap;
use std::sync::Arc;

use ash::vk;
use common::simulated_device;
use parsnip_driver::buffer::Buffer;
use parsnip_driver::cmd::buffer::Level;
use parsnip_driver::cmd::pool::CommandPool;
use parsnip_driver::device::Device;
use parsnip_driver::device_memory::DeviceMemory;
use parsnip_driver::image::{Image, ImageDesc};
use parsnip_registers::lookup::chip_table;
use parsnip_registers::Chip;

/// The 2D registers compared; those holding addresses are compared
/// relative to their surface's base.
const REGISTERS: &[&str] = &[
    "RB_2D_BLIT_CNTL",
    "GRAS_2D_BLIT_CNTL",
    "SP_2D_DST_FORMAT",
    "RB_2D_DST_INFO",
    "RB_2D_DST_PITCH",
    "SP_PS_2D_SRC_INFO",
    "SP_PS_2D_SRC_SIZE",
    "SP_PS_2D_SRC_PITCH",
    "GRAS_2D_DST_TL",
    "GRAS_2D_DST_BR",
    "GRAS_2D_SRC_TL_X",
    "GRAS_2D_SRC_BR_X",
    "GRAS_2D_SRC_TL_Y",
    "GRAS_2D_SRC_BR_Y",
];
const ADDRESSES: &[&str] = &["RB_2D_DST", "SP_PS_2D_SRC"];
/// The solid colour of clears.
const SOLID: &[&str] = &[
    "RB_2D_SRC_SOLID_C0",
    "RB_2D_SRC_SOLID_C1",
    "RB_2D_SRC_SOLID_C2",
    "RB_2D_SRC_SOLID_C3",
];

type Snapshot = HashMap<String, u64>;

/// The register values of each CP_BLIT in a cffdump log ("draw[N]
/// register values" blocks: `!+\tVALUE\t\tNAME: ...`, listing what the
/// blit's packets wrote; the rest carries over from earlier blits).
fn trace_blits(log: &str) -> Vec<Snapshot> {
    let mut out = Vec::new();
    let mut lines = log.lines();
    let mut snap = Snapshot::new();
    while let Some(line) = lines.next() {
        if !line.contains("opcode: CP_BLIT (2c)") {
            continue;
        }
        for l in lines.by_ref() {
            let t = l.trim_start();
            if t.starts_with("opcode:") || t.starts_with("write ") {
                break;
            }
            let Some(rest) = t.strip_prefix("!+").or_else(|| t.strip_prefix('+')) else {
                continue;
            };
            let mut parts = rest.split_whitespace();
            let (Some(value), Some(name)) = (parts.next(), parts.next()) else {
                continue;
            };
            if let Ok(v) = u64::from_str_radix(value, 16) {
                snap.insert(name.trim_end_matches(':').to_string(), v);
            }
        }
        out.push(snap.clone());
    }
    out
}

/// Register values at each CP_BLIT of a packet stream (type 4 writes
/// tracked, type 7 CP_BLIT snapshots them).
fn stream_blits(chip: Chip, dwords: &[u32]) -> Vec<Snapshot> {
    let table = chip_table(chip);
    let names: Vec<(&str, u32)> = REGISTERS
        .iter()
        .chain(ADDRESSES)
        .chain(SOLID)
        .map(|n| (*n, table.offset_of(n).unwrap_or_else(|| panic!("{n}"))))
        .collect();
    let mut regs: HashMap<u32, u32> = HashMap::new();
    let mut out = Vec::new();
    let mut i = 0;
    while i < dwords.len() {
        let h = dwords[i];
        match h >> 28 {
            4 => {
                let count = (h & 0x7f) as usize;
                let offset = (h >> 8) & 0x3ffff;
                for k in 0..count {
                    regs.insert(offset + k as u32, dwords[i + 1 + k]);
                }
                i += 1 + count;
            }
            7 => {
                let count = (h & 0x3fff) as usize;
                if (h >> 16) & 0x7f == 0x2c {
                    let mut snap = Snapshot::new();
                    for (n, off) in &names {
                        let lo = u64::from(regs.get(off).copied().unwrap_or(0));
                        let v = if ADDRESSES.contains(n) {
                            lo | u64::from(regs.get(&(off + 1)).copied().unwrap_or(0)) << 32
                        } else {
                            lo
                        };
                        snap.insert(n.to_string(), v);
                    }
                    out.push(snap);
                }
                i += 1 + count;
            }
            _ => panic!("not a type 4 or 7 packet: {h:#x}"),
        }
    }
    out
}

struct Upload {
    format: vk::Format,
    extent: u32,
    levels: u32,
    usage: vk::ImageUsageFlags,
    /// (buffer offset, extent) per level.
    regions: Vec<(u64, u32)>,
    buffer_size: u64,
    /// Image to buffer rather than buffer to image.
    download: bool,
    /// A clear to this colour instead of a copy.
    clear: Option<[f32; 4]>,
}

fn recorded_upload(device: &Arc<Device>, u: &Upload) -> (Vec<u32>, u64, u64) {
    let desc = ImageDesc {
        image_type: vk::ImageType::TYPE_2D,
        format: u.format,
        extent: vk::Extent3D {
            width: u.extent,
            height: u.extent,
            depth: 1,
        },
        levels: u.levels,
        layers: 1,
        samples: 1,
        tiling: vk::ImageTiling::OPTIMAL,
        usage: u.usage,
        flags: vk::ImageCreateFlags::empty(),
        view_formats_swap: true,
    };
    let image = Image::new(desc, device.gpu.entry).unwrap();
    let image_memory = DeviceMemory::allocate(device, image.size.max(4096), 0).unwrap();
    image.bind(image_memory.clone(), 0).unwrap();
    let buffer = Buffer::new(u.buffer_size, vk::BufferUsageFlags::TRANSFER_SRC).unwrap();
    let buffer_memory =
        DeviceMemory::allocate(device, u.buffer_size.next_multiple_of(4096), 0).unwrap();
    buffer.bind(buffer_memory.clone(), 0).unwrap();
    let regions: Vec<vk::BufferImageCopy> = u
        .regions
        .iter()
        .enumerate()
        .map(|(level, &(offset, extent))| vk::BufferImageCopy {
            buffer_offset: offset,
            buffer_row_length: 0,
            buffer_image_height: 0,
            image_subresource: vk::ImageSubresourceLayers {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                mip_level: level as u32,
                base_array_layer: 0,
                layer_count: 1,
            },
            image_offset: vk::Offset3D::default(),
            image_extent: vk::Extent3D {
                width: extent,
                height: extent,
                depth: 1,
            },
        })
        .collect();
    let pool = CommandPool::new(device, 0, vk::CommandPoolCreateFlags::empty()).unwrap();
    let cmd = pool.allocate(Level::Primary);
    cmd.begin(None).unwrap();
    if let Some(c) = u.clear {
        let value = vk::ClearColorValue { float32: c };
        let range = vk::ImageSubresourceRange {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            base_mip_level: 0,
            level_count: 1,
            base_array_layer: 0,
            layer_count: 1,
        };
        cmd.record(|r| r.clear_color_image(&image, &value, &[range]));
    } else if u.download {
        cmd.record(|r| r.copy_image_to_buffer(&image, &buffer, &regions));
    } else {
        cmd.record(|r| r.copy_buffer_to_image(&buffer, &image, &regions));
    }
    cmd.end().unwrap();
    let mut dwords = Vec::new();
    for ib in cmd.ibs_for_submit().unwrap() {
        let mut bytes = vec![0u8; ib.dwords as usize * 4];
        ib.bo.read(ib.offset, &mut bytes).unwrap();
        dwords.extend(
            bytes
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes(c.try_into().unwrap())),
        );
    }
    (dwords, image.iova(0), buffer.iova(0))
}

/// Compares Parsnip's blits with the first `count` of the trace's, the
/// trace's image and buffer bases given.
fn compare(
    gpu: &'static str,
    log: &str,
    upload: &Upload,
    trace_bases: (u64, u64),
    first_trace_blit: usize,
) -> usize {
    let Some(path) = parsnip_reference::reference_file("image_copies_vs_turnip", log) else {
        return 0;
    };
    let text = std::fs::read_to_string(path).unwrap();
    let theirs = trace_blits(&text);
    let device = simulated_device(gpu);
    let (dwords, image_base, buffer_base) = recorded_upload(&device, upload);
    let ours = stream_blits(device.gpu.chip(), &dwords);
    assert!(!ours.is_empty(), "{gpu}: no CP_BLIT recorded");
    let theirs = &theirs[first_trace_blit..first_trace_blit + ours.len()];
    for (i, (o, t)) in ours.iter().zip(theirs).enumerate() {
        let source_registers: &[&str] = if upload.clear.is_some() { SOLID } else { &[] };
        for name in REGISTERS.iter().chain(source_registers) {
            if upload.clear.is_some()
                && (name.starts_with("SP_PS_2D_SRC") || name.starts_with("GRAS_2D_SRC"))
            {
                // A solid fill reads no source surface.
                continue;
            }
            assert_eq!(
                o[*name], t[*name],
                "{gpu} {log} blit {i}: {name} is {:#x}, Turnip's {:#x}",
                o[*name], t[*name]
            );
        }
        let rel = |s: &Snapshot, n: &str, base: u64| s[n] as i64 - base as i64;
        let (dst, src) = if upload.download {
            ((buffer_base, trace_bases.1), (image_base, trace_bases.0))
        } else {
            ((image_base, trace_bases.0), (buffer_base, trace_bases.1))
        };
        assert_eq!(
            rel(o, "RB_2D_DST", dst.0),
            rel(t, "RB_2D_DST", dst.1),
            "{gpu} {log} blit {i}: RB_2D_DST"
        );
        if upload.clear.is_none() {
            assert_eq!(
                rel(o, "SP_PS_2D_SRC", src.0),
                rel(t, "SP_PS_2D_SRC", src.1),
                "{gpu} {log} blit {i}: SP_PS_2D_SRC"
            );
        }
    }
    println!("{gpu} {log}: {} blits match Turnip's", ours.len());
    ours.len()
}

fn mip_lod() -> Upload {
    Upload {
        format: vk::Format::R8G8B8A8_UNORM,
        extent: 8,
        levels: 4,
        usage: vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::TRANSFER_DST,
        regions: vec![(0, 8), (256, 4), (320, 2), (336, 1)],
        buffer_size: 384,
        download: false,
        clear: None,
    }
}

fn storage_copy(format: vk::Format, buffer_offset: u64, download: bool) -> Upload {
    Upload {
        format,
        extent: 16,
        levels: 1,
        usage: vk::ImageUsageFlags::STORAGE
            | vk::ImageUsageFlags::TRANSFER_DST
            | vk::ImageUsageFlags::TRANSFER_SRC,
        regions: vec![(buffer_offset, 16)],
        buffer_size: 2048,
        download,
        clear: None,
    }
}

#[test]
fn a660_texture_upload_matches_turnip_row_by_row() {
    // Staging buffer 0x100035000, image 0x100036000 (mip_lod_sysmem.log).
    // Rows of 32 bytes are not 64-byte aligned: one blit per row, 8 + 4 +
    // 2 + 1.
    let n = compare(
        "a660",
        "turnip/a660/mip_lod_sysmem.log",
        &mip_lod(),
        (0x1_0003_6000, 0x1_0003_5000),
        0,
    );
    assert!(n == 0 || n == 15, "{n} blits");
}

#[test]
fn a740_texture_upload_matches_turnip_region_by_region() {
    let n = compare(
        "a740",
        "turnip/a740/mip_lod_sysmem.log",
        &mip_lod(),
        (0x1_0003_6000, 0x1_0003_5000),
        0,
    );
    assert!(n == 0 || n == 4, "{n} blits");
}

#[test]
fn storage_image_uploads_match_turnip() {
    // storage_image.log: R32_UINT from 0x100026000 into the BO at
    // 0x100029000, then RGBA8 from 0x100027000 into the next image's BO
    // (0x10002a000 on a660; 0x10002b000 on a740, whose UBWC storage images
    // are larger); 64-byte rows, one blit each.
    for (gpu, log, rgba8_bo) in [
        ("a660", "turnip/a660/storage_image.log", 0x1_0002_a000),
        ("a740", "turnip/a740/storage_image.log", 0x1_0002_b000),
    ] {
        let r32 = storage_copy(vk::Format::R32_UINT, 0, false);
        let n = compare(gpu, log, &r32, (0x1_0002_9000, 0x1_0002_6000), 0);
        let rgba8 = storage_copy(vk::Format::R8G8B8A8_UNORM, 0, false);
        let m = compare(gpu, log, &rgba8, (rgba8_bo, 0x1_0002_7000), 1);
        assert!(n + m == 0 || (n, m) == (1, 1));
    }
}

#[test]
fn storage_image_readbacks_match_turnip() {
    // The results: outU and outC copied into the buffer at 0x100028000,
    // words 0..255 and 256..511 (byte 1024 on).
    for (gpu, log, images) in [
        (
            "a660",
            "turnip/a660/storage_image.log",
            [0x1_0002_b000, 0x1_0002_c000],
        ),
        (
            "a740",
            "turnip/a740/storage_image.log",
            [0x1_0002_d000, 0x1_0002_f000],
        ),
    ] {
        let r32 = storage_copy(vk::Format::R32_UINT, 0, true);
        let n = compare(gpu, log, &r32, (images[0], 0x1_0002_8000), 2);
        let rgba8 = storage_copy(vk::Format::R8G8B8A8_UNORM, 1024, true);
        let m = compare(gpu, log, &rgba8, (images[1], 0x1_0002_8000), 3);
        assert!(n + m == 0 || (n, m) == (1, 1));
    }
}

fn attachment(download: bool, clear: Option<[f32; 4]>) -> Upload {
    Upload {
        format: vk::Format::R8G8B8A8_UNORM,
        extent: 64,
        levels: 1,
        usage: vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC,
        regions: vec![(0, 64)],
        buffer_size: 16384,
        download,
        clear,
    }
}

#[test]
fn the_triangle_attachment_clear_and_readback_match_turnip() {
    // triangle_sysmem.log: the render pass clears the 64x64 RGBA8
    // attachment (UBWC, BO 0x100026000) to (0.1, 0.2, 0.3, 1.0) with a
    // solid 2D blit, then vkCmdCopyImageToBuffer copies it into the
    // buffer at 0x10002b000.
    for (gpu, log) in [
        ("a660", "turnip/a660/triangle_sysmem.log"),
        ("a740", "turnip/a740/triangle_sysmem.log"),
    ] {
        let bases = (0x1_0002_6000, 0x1_0002_b000);
        let clear = attachment(false, Some([0.1, 0.2, 0.3, 1.0]));
        let n = compare(gpu, log, &clear, bases, 0);
        let m = compare(gpu, log, &attachment(true, None), bases, 1);
        assert!(n + m == 0 || (n, m) == (1, 1));
    }
}
