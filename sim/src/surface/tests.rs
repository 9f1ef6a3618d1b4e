//! Surfaces: element addresses per layout, and UBWC as every unit sees it.
//! Addresses are worked out by hand from the rules in [`super::tiling`].

use std::sync::Arc;

use parsnip_registers::gpu;

use super::*;
use crate::memory::OwnedBacking;

const BASE: u64 = 0x1_0000_0000;

fn memory() -> AddressSpace {
    let m = AddressSpace::new();
    m.map(BASE, Arc::new(OwnedBacking::zeroed(0x4_0000).unwrap()))
        .unwrap();
    m
}

fn a660() -> &'static GpuInfo {
    gpu::by_name("a660").unwrap()
}

fn desc(format: A6xxFormat, tile_mode: A6xxTileMode, pitch: u64) -> SurfaceDesc {
    SurfaceDesc {
        base: BASE + 0x1_0000,
        format,
        swap: A3xxColorSwap::WZYX,
        srgb: false,
        tile_mode,
        pitch,
        samples: 1,
        extent: None,
        flags: None,
        mutable: false,
    }
}

fn byte(m: &AddressSpace, at: u64) -> u8 {
    let mut b = [0];
    m.read(at, &mut b).unwrap();
    b[0]
}

#[test]
fn linear_and_tiled_texels_land_where_the_layout_says() {
    let m = memory();
    let d = desc(
        A6xxFormat::FMT6_8_8_8_8_UINT,
        A6xxTileMode::TILE6_LINEAR,
        256,
    );
    let s = Surface::new(d, a660()).unwrap();
    s.write_texel(&m, 3, 2, 0, Texel::Int([1, 2, 3, 4]), 0xf)
        .unwrap();
    assert_eq!(m.read_u32(d.base + 2 * 256 + 3 * 4).unwrap(), 0x0403_0201);
    assert_eq!(s.read_texel(&m, 3, 2, 0).unwrap(), Texel::Int([1, 2, 3, 4]));

    let t = Surface::new(
        desc(A6xxFormat::FMT6_8_8_8_8_UINT, A6xxTileMode::TILE6_3, 256),
        a660(),
    )
    .unwrap();
    // Tile (1, 1) of 16x4 pixels: x0 and y0 cancel in b0, leaving tile 1.
    t.write_texel(&m, 16, 4, 0, Texel::Int([9, 8, 7, 6]), 0xf)
        .unwrap();
    assert_eq!(t.element_address(16, 4, 0).unwrap(), d.base + 0x100);
    assert_eq!(m.read_u32(d.base + 0x100).unwrap(), 0x0607_0809);
}

#[test]
fn multisampled_pixels_hold_their_samples_together() {
    let m = memory();
    let mut d = desc(A6xxFormat::FMT6_32_UINT, A6xxTileMode::TILE6_LINEAR, 256);
    d.samples = 4;
    let s = Surface::new(d, a660()).unwrap();
    s.write_texel(&m, 1, 0, 2, Texel::Int([0xabcd, 0, 0, 0]), 1)
        .unwrap();
    assert_eq!(m.read_u32(d.base + 16 + 8).unwrap(), 0xabcd);
    assert!(s.read_texel(&m, 1, 0, 4).is_err());
}

#[test]
fn tiled_r8g8_keeps_red_and_green_in_the_halves_of_a_32x8_block() {
    let m = memory();
    let d = desc(A6xxFormat::FMT6_8_8_UNORM, A6xxTileMode::TILE6_3, 128);
    let s = Surface::new(d, a660()).unwrap();
    s.write_element(&m, 1, 0, 0, &[0x11, 0x22]).unwrap();
    // R at R8 pixel (1, 0) of the block: index 1; G at (17, 0): x0 and x4
    // set, index 1 + 64.
    assert_eq!(byte(&m, d.base + 1), 0x11);
    assert_eq!(byte(&m, d.base + 65), 0x22);
    let mut out = [0u8; 2];
    s.read_element(&m, 1, 0, 0, &mut out).unwrap();
    assert_eq!(out, [0x11, 0x22]);
    assert!(s.element_address(1, 0, 0).is_err());
    // A mutable image (a7xx MUTABLEEN) is laid out as plain 2-byte pixels.
    let mut dm = d;
    dm.mutable = true;
    dm.pitch = 256;
    let plain = Surface::new(dm, a660()).unwrap();
    assert_eq!(plain.element_address(1, 0, 0).unwrap(), d.base + 2);
}

#[test]
fn masked_writes_keep_the_other_components() {
    let m = memory();
    let d = desc(
        A6xxFormat::FMT6_8_8_8_8_UNORM,
        A6xxTileMode::TILE6_LINEAR,
        64,
    );
    let s = Surface::new(d, a660()).unwrap();
    m.write_u32(d.base, 0x4433_2211).unwrap();
    s.write_texel(&m, 0, 0, 0, Texel::Float([1.0, 0.0, 1.0, 0.0]), 0b0101)
        .unwrap();
    assert_eq!(m.read_u32(d.base).unwrap(), 0x44ff_22ff);
}

#[test]
fn layouts_the_hardware_cannot_have_are_refused() {
    let mut d = desc(
        A6xxFormat::FMT6_8_8_8_8_UNORM,
        A6xxTileMode::TILE6_LINEAR,
        64,
    );
    d.flags = Some((BASE, 64));
    let e = Surface::new(d, a660()).unwrap_err();
    assert!(matches!(e, SurfaceError::Invalid(_)), "{e}");
    let e = Surface::new(
        desc(A6xxFormat::FMT6_8_8_8_8_UNORM, A6xxTileMode::TILE6_3, 320),
        a660(),
    )
    .unwrap_err();
    assert!(
        e.to_string().contains("multiple of a macrotile's width"),
        "{e}"
    );
    // GMEM surfaces are never compressed.
    let mut d = desc(A6xxFormat::FMT6_8_8_8_8_UNORM, A6xxTileMode::TILE6_2, 256);
    d.flags = Some((BASE, 64));
    let e = Surface::new(d, a660()).unwrap_err();
    assert!(matches!(e, SurfaceError::Invalid(_)), "{e}");
    // 3-byte pixels cannot be tiled.
    assert!(Surface::new(
        desc(A6xxFormat::FMT6_8_8_8_UNORM, A6xxTileMode::TILE6_3, 256),
        a660()
    )
    .is_err());
    // A compressed format's texels are not read, but its blocks copy.
    let bc = Surface::new(
        desc(A6xxFormat::FMT6_DXT1, A6xxTileMode::TILE6_LINEAR, 64),
        a660(),
    )
    .unwrap();
    assert!(bc.read_texel(&memory(), 0, 0, 0).is_err());
    assert_eq!(bc.element.bytes, 8);
}

fn ubwc_pair() -> (Surface, Surface, AddressSpace) {
    let mut d = desc(A6xxFormat::FMT6_32_UINT, A6xxTileMode::TILE6_3, 256);
    d.flags = Some((BASE, 64));
    let compressed = Surface::new(d, a660()).unwrap();
    d.flags = None;
    let plain = Surface::new(d, a660()).unwrap();
    (compressed, plain, memory())
}

#[test]
fn compressed_writes_set_the_flag_byte_of_their_block() {
    let (c, _, m) = ubwc_pair();
    // 4-byte pixels: 16x4 UBWC blocks, one flag byte each, 64 to a row.
    c.write_texel(&m, 17, 5, 0, Texel::Int([7, 0, 0, 0]), 1)
        .unwrap();
    assert_eq!(byte(&m, BASE + 64 + 1), ubwc::COMPRESSED);
    assert_eq!(byte(&m, BASE), 0);
    assert_eq!(
        c.read_texel(&m, 17, 5, 0).unwrap(),
        Texel::Int([7, 0, 0, 1])
    );
}

#[test]
fn reading_compressed_data_without_its_flags_is_an_error() {
    let (c, plain, m) = ubwc_pair();
    c.write_texel(&m, 0, 0, 0, Texel::Int([7, 0, 0, 0]), 1)
        .unwrap();
    let e = plain.read_texel(&m, 1, 0, 0).unwrap_err();
    assert!(matches!(e, SurfaceError::Compression(_)), "{e}");
    assert!(e.to_string().contains("without UBWC flags"), "{e}");
    // Texels in tiles no compressed write touched read fine.
    assert!(plain.read_texel(&m, 40, 0, 0).is_ok());
    // Once the flags are cleared (the driver decompressed, or reused the
    // memory), the data is plain again.
    m.write(BASE, &[0]).unwrap();
    assert!(plain.read_texel(&m, 1, 0, 0).is_ok());
}

#[test]
fn compressed_reads_of_data_written_without_flags_are_errors() {
    let (c, plain, m) = ubwc_pair();
    c.write_texel(&m, 0, 0, 0, Texel::Int([7, 0, 0, 0]), 1)
        .unwrap();
    plain
        .write_texel(&m, 0, 0, 0, Texel::Int([8, 0, 0, 0]), 1)
        .unwrap();
    let e = c.read_texel(&m, 0, 0, 0).unwrap_err();
    assert!(e.to_string().contains("written without flags since"), "{e}");
    // A compressed write makes the tile whole again.
    c.write_texel(&m, 0, 0, 0, Texel::Int([9, 0, 0, 0]), 1)
        .unwrap();
    assert_eq!(c.read_texel(&m, 0, 0, 0).unwrap(), Texel::Int([9, 0, 0, 1]));
}

#[test]
fn flag_bytes_the_model_did_not_write_are_not_public() {
    let (c, _, m) = ubwc_pair();
    // Fresh flags (0) are uncompressed blocks.
    assert!(c.read_texel(&m, 0, 0, 0).is_ok());
    m.write(BASE, &[0x55]).unwrap();
    let e = c.read_texel(&m, 0, 0, 0).unwrap_err();
    assert!(matches!(e, SurfaceError::NotModelled(_)), "{e}");
}

#[test]
fn unmapping_a_buffer_forgets_its_compressed_tiles() {
    let (c, _, m) = ubwc_pair();
    c.write_texel(&m, 0, 0, 0, Texel::Int([7, 0, 0, 0]), 1)
        .unwrap();
    assert!(m.unmap(BASE));
    m.map(BASE, Arc::new(OwnedBacking::zeroed(0x4_0000).unwrap()))
        .unwrap();
    assert_eq!(
        m.compressed_tiles().record(ubwc::tile_of(c.desc.base)),
        None
    );
}
