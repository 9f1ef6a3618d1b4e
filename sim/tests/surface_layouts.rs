//! Surfaces as units find them: the levels of a texture descriptor by the
//! layout rules drivers use, and render targets, depth buffers and 2D
//! engine surfaces from the register values Turnip wrote in
//! reference/turnip's traces (the dwords are copied from the .logs).

use parsnip_registers::descriptors::a6xx::TextureDescriptor;
use parsnip_registers::enums::{
    A3xxColorSwap, A3xxMsaaSamples, A6xxDepthFormat, A6xxFormat, A6xxTexType, A6xxTileMode,
};
use parsnip_registers::gpu;
use parsnip_registers::Chip;
use parsnip_sim::register_file::RegisterFile;
use parsnip_sim::surface::registers::{blit_destination, blit_source, color_target, depth_buffer};
use parsnip_sim::surface::texture::TextureImage;
use parsnip_sim::surface::SurfaceError;

/// A register file holding type 4 writes: (first register, dwords).
fn registers(chip: Chip, writes: &[(u32, &[u32])]) -> RegisterFile {
    let mut r = RegisterFile::new(chip, true);
    for (offset, values) in writes {
        for (i, v) in values.iter().enumerate() {
            r.write(offset + i as u32, *v);
        }
    }
    r
}

#[test]
fn turnips_mip_chain_is_where_its_uploads_put_the_levels() {
    // The sampled texture of turnip/a660/mip_lod_sysmem.log (at
    // 0x100038000): 8x8 RGBA8, 4 levels, linear, pitch 256. The same trace
    // uploads the levels with CP_BLITs to RB_2D_DST 0x100036000, 0x100036800,
    // 0x100036c00 and 0x100036e00, with a pitch of 256 each.
    let mut raw = [0u32; 16];
    raw[..6].copy_from_slice(&[
        0x0c03_6880,
        0x0004_0008,
        0x2000_8002,
        0x0000_0002,
        0x0003_6000,
        0x0002_0001,
    ]);
    let a660 = gpu::by_name("a660").unwrap();
    let t = TextureImage::from_descriptor(&raw, Chip::A6xx);
    assert_eq!((t.width, t.height, t.levels), (8, 8, 4));
    let uploads = [
        0x1_0003_6000u64,
        0x1_0003_6800,
        0x1_0003_6c00,
        0x1_0003_6e00,
    ];
    for (level, want) in uploads.into_iter().enumerate() {
        let s = t.surface(level as u32, 0, a660).unwrap();
        assert_eq!(s.desc.base, want, "level {level}");
        assert_eq!(s.desc.pitch, 256, "level {level}");
        assert_eq!(s.desc.extent, Some((8 >> level, 8 >> level)));
        assert_eq!(s.desc.tile_mode, A6xxTileMode::TILE6_LINEAR);
    }
    assert!(t.surface(4, 0, a660).is_err());
}

fn descriptor(d: TextureDescriptor) -> [u32; 16] {
    d.to_raw()
}

#[test]
fn tiled_ubwc_levels_follow_the_layout_rules() {
    // 64x64 RGBA8, TILE6_3, 4 levels, UBWC, by fdl6's rules worked by hand:
    // pitch 256 for every level (a 64-pixel row, aligned to 256 bytes);
    // level 0 is 64 rows (16384 bytes), level 1 32 rows (8192), level 2 16
    // rows (4096), each ending on 4 KiB; level 3 (8 wide) is tiled only
    // with TILE_ALL. Flags: 16x4 blocks, pitch 64, rows 2^4 = 16 aligned to
    // 64: 4096 bytes a level.
    let base = 0x1_0010_0000;
    let flags = 0x1_0000_0000u64;
    let mut d = TextureDescriptor {
        tile_mode: A6xxTileMode::TILE6_3,
        fmt: A6xxFormat::FMT6_8_8_8_8_UNORM,
        swap: A3xxColorSwap::WZYX,
        samples: A3xxMsaaSamples::MSAA_ONE,
        miplvls: 3,
        width: 64,
        height: 64,
        pitchalign: 2,
        pitch: 256,
        r#type: A6xxTexType::A6XX_TEX_2D,
        array_pitch: 0x8000,
        tile_all: true,
        flag: true,
        base_lo: base as u32,
        base_hi: (base >> 32) as u32,
        depth: 2,
        flag_lo: flags as u32,
        flag_hi: (flags >> 32) as u32,
        flag_buffer_array_pitch: 0x1000,
        flag_buffer_pitch: 64,
        flag_buffer_logw: 2,
        flag_buffer_logh: 4,
        ..Default::default()
    };
    let a660 = gpu::by_name("a660").unwrap();
    let t = TextureImage::from_descriptor(&descriptor(d), Chip::A6xx);
    let offsets = [0, 16384, 24576, 28672];
    for (level, offset) in offsets.into_iter().enumerate() {
        let s = t.surface(level as u32, 0, a660).unwrap();
        assert_eq!(s.desc.base, base + offset, "level {level}");
        assert_eq!(s.desc.tile_mode, A6xxTileMode::TILE6_3);
        let f = s.flag_buffer().unwrap();
        assert_eq!(f.base, flags + 4096 * level as u64, "level {level}");
        assert_eq!(f.pitch, 64);
    }
    // Layer 1: ARRAY_PITCH further, its flags FLAG_BUFFER_ARRAY_PITCH * 4.
    let s = t.surface(1, 1, a660).unwrap();
    assert_eq!(s.desc.base, base + 0x8000 + 16384);
    assert_eq!(s.flag_buffer().unwrap().base, flags + 0x4000 + 4096);

    // Without TILE_ALL or UBWC, the 8-wide level is linear and the levels
    // are not aligned to 4 KiB: level 3 follows level 2's 16 rows.
    d.tile_all = false;
    d.flag = false;
    let t = TextureImage::from_descriptor(&descriptor(d), Chip::A6xx);
    let s = t.surface(3, 0, a660).unwrap();
    assert_eq!(s.desc.tile_mode, A6xxTileMode::TILE6_LINEAR);
    assert_eq!(s.desc.base, base + 16384 + 8192 + 4096);
    assert!(!s.is_compressed());
}

#[test]
fn three_d_levels_shrink_their_slices_down_to_min_layersz() {
    // fdl6's 3D rules worked by hand. 256x256x2 RGBA8, linear, 3 levels:
    // pitches 1024, 512, 256 halve with the width, so the slices shrink
    // by 4 a level: 262144, 65536, 16384 (the last is MIN_LAYERSZ).
    let base = 0x1_0010_0000u64;
    let three_d =
        |width: u32, depth: u32, levels: u32, pitch: u32, array_pitch: u64, min_layersz: u32| {
            TextureDescriptor {
                fmt: A6xxFormat::FMT6_8_8_8_8_UNORM,
                miplvls: levels - 1,
                width,
                height: width,
                depth,
                pitchalign: 2,
                pitch,
                r#type: A6xxTexType::A6XX_TEX_3D,
                array_pitch,
                min_layersz,
                base_lo: base as u32,
                base_hi: (base >> 32) as u32,
                ..Default::default()
            }
        };
    let a740 = gpu::by_name("a740").unwrap();
    let t = TextureImage::from_descriptor(
        &descriptor(three_d(256, 2, 3, 1024, 262144, 16384)),
        Chip::A7xx,
    );
    let at = |level, slice| t.surface(level, slice, a740).unwrap().desc.base - base;
    assert_eq!(at(0, 1), 262144);
    assert_eq!(at(1, 0), 2 * 262144);
    assert_eq!(at(2, 0), 2 * 262144 + 65536);
    assert_eq!(t.surface(1, 0, a740).unwrap().desc.pitch, 512);
    // 64x64x4: level 1's pitch cannot halve below the 256-byte alignment,
    // so its slices stay 32 rows of 256 bytes, 8192, which fdl6 gives as
    // MIN_LAYERSZ rather than a quarter of 16384.
    let t =
        TextureImage::from_descriptor(&descriptor(three_d(64, 4, 2, 256, 16384, 8192)), Chip::A7xx);
    let at = |level, slice| t.surface(level, slice, a740).unwrap().desc.base - base;
    assert_eq!(at(1, 0), 4 * 16384);
    assert_eq!(at(1, 1), 4 * 16384 + 8192);
}

/// turnip/a660/depth_bias_cull_sysmem.log: the render pass state and the
/// final copy's source, which is the colour attachment.
fn depth_bias_cull_pass() -> RegisterFile {
    registers(
        Chip::A6xx,
        &[
            // RB_DEPTH_BUFFER_INFO .. _BASE_GMEM
            (0x8872, &[1, 4, 0x100, 0x30000, 1, 0xff000]),
            // RB_DEPTH_FLAG_BUFFER_BASE, _PITCH
            (0x8900, &[0x2f000, 1, 0x4001]),
            // RB_MRT[0].BUF_INFO .. BASE_GMEM
            (0x8822, &[0x330, 8, 0x200, 0x27000, 1, 0]),
            // RB_MRT_FLAG_BUFFER[0].ADDR, PITCH
            (0x8903, &[0x26000, 1, 0x4001]),
            (0x880f, &[0]),
            (0x8801, &[0x14010]),
            // RB_RAS_MSAA_CNTL, RB_DEST_MSAA_CNTL
            (0x8802, &[0, 4]),
            // SP_PS_2D_SRC_INFO .. _PITCH, and its flags
            (0xb4c0, &[0x0050_1330, 0x0020_0060, 0x27000, 1, 0x1000]),
            (0xb4ca, &[0x26000, 1, 0x4001]),
            // The depth clear's RB_2D_DST_INFO .. _PITCH, and its flags.
            (0x8c17, &[0x1315, 0x30000, 1, 4]),
            (0x8c20, &[0x2f000, 1, 0x4001]),
        ],
    )
}

#[test]
fn a_colour_target_is_the_surface_the_copy_reads() {
    let regs = depth_bias_cull_pass();
    let a660 = gpu::by_name("a660").unwrap();
    let target = color_target(&regs, a660, 0, 0).unwrap();
    let (source, control) = blit_source(&regs, a660).unwrap();
    assert!(!control.filter && !control.samples_average);
    assert_eq!(target.desc.base, 0x1_0002_7000);
    assert_eq!(target.desc.pitch, 512);
    assert_eq!(target.desc.tile_mode, A6xxTileMode::TILE6_3);
    let flags = target.flag_buffer().unwrap();
    assert_eq!((flags.base, flags.pitch), (0x1_0002_6000, 64));
    assert_eq!(source.desc.extent, Some((96, 64)));
    let mut rt = target.desc;
    rt.extent = source.desc.extent;
    assert_eq!(rt, source.desc);
    for (x, y) in [(0, 0), (95, 63), (17, 40)] {
        assert_eq!(
            target.element_address(x, y, 0).unwrap(),
            source.element_address(x, y, 0).unwrap()
        );
    }
}

#[test]
fn the_depth_buffer_is_the_surface_its_clear_writes() {
    let regs = depth_bias_cull_pass();
    let a660 = gpu::by_name("a660").unwrap();
    let (depth, format) = depth_buffer(&regs, a660, 0).unwrap();
    assert_eq!(format.format, A6xxDepthFormat::DEPTH6_16);
    let clear = blit_destination(&regs, a660).unwrap();
    assert_eq!(depth.desc, clear.desc);
    assert_eq!(depth.flag_buffer(), clear.flag_buffer());
    assert_eq!(
        depth.element_address(50, 33, 0).unwrap(),
        clear.element_address(50, 33, 0).unwrap()
    );
}

#[test]
fn a_surface_register_nothing_wrote_is_named() {
    let mut regs = registers(Chip::A7xx, &[(0x8c17, &[0x1330]), (0x8c18, &[0x2c000, 1])]);
    let a740 = gpu::by_name("a740").unwrap();
    // FLAGS is set, so the flag registers are read; the pitch is missing
    // first.
    let e = blit_destination(&regs, a740).unwrap_err();
    assert!(matches!(e, SurfaceError::Register(_)));
    assert!(e.to_string().contains("RB_2D_DST_FLAGS"), "{e}");
    regs.write(0x8c20, 0x2b000);
    regs.write(0x8c21, 1);
    regs.write(0x8c22, 0x4001);
    let e = blit_destination(&regs, a740).unwrap_err();
    assert!(e.to_string().contains("RB_2D_DST_PITCH"), "{e}");
    regs.write(0x8c1a, 4);
    assert!(blit_destination(&regs, a740).is_ok());
}
