//! Texel layouts checked against the Vulkan formats Turnip maps onto them
//! (tu_formats.cc) and values worked out by hand from the Vulkan spec.

use super::*;
use parsnip_registers::enums::A3xxColorSwap as S;

fn fmt(f: F, s: S) -> TexelFormat {
    TexelFormat::new(f, s).unwrap()
}

fn float(t: Texel) -> [f32; 4] {
    match t {
        Texel::Float(v) => v,
        Texel::Int(v) => panic!("integer texel {v:?}"),
    }
}

#[test]
fn swaps_place_the_components_of_bgra_and_packed_formats() {
    // B8G8R8A8_UNORM: FMT6_8_8_8_8_UNORM with WXYZ, blue in byte 0.
    let bgra = fmt(F::FMT6_8_8_8_8_UNORM, S::WXYZ);
    assert_eq!(
        float(bgra.decode(&[0x33, 0x66, 0x99, 0xff])),
        [
            0x99 as f32 / 255.0,
            0x66 as f32 / 255.0,
            0x33 as f32 / 255.0,
            1.0
        ]
    );
    // R5G5B5A1_UNORM_PACK16 (R in bits 11-15, A in bit 0): 5_5_5_1 with XYZW.
    let rgba5551 = fmt(F::FMT6_5_5_5_1_UNORM, S::XYZW);
    assert_eq!(
        float(rgba5551.decode(&0xf801u16.to_le_bytes())),
        [1.0, 0.0, 0.0, 1.0]
    );
    assert_eq!(
        float(rgba5551.decode(&0x07c0u16.to_le_bytes())),
        [0.0, 1.0, 0.0, 0.0]
    );
    // The same Vulkan format as a linear texture: FMT6_1_5_5_5 with WXYZ.
    let rev = fmt(F::FMT6_1_5_5_5_UNORM, S::WXYZ);
    assert_eq!(
        float(rev.decode(&0xf801u16.to_le_bytes())),
        [1.0, 0.0, 0.0, 1.0]
    );
    assert_eq!(
        float(rev.decode(&0x003eu16.to_le_bytes())),
        [0.0, 0.0, 1.0, 0.0]
    );
    // B5G5R5A1 (B in bits 11-15) is FMT6_1_5_5_5 with WZYX.
    let bgr = fmt(F::FMT6_1_5_5_5_UNORM, S::WZYX);
    assert_eq!(
        float(bgr.decode(&0xf801u16.to_le_bytes())),
        [0.0, 0.0, 1.0, 1.0]
    );
    // R5G6B5_UNORM_PACK16 (R in bits 11-15): 5_6_5 with WXYZ.
    let r565 = fmt(F::FMT6_5_6_5_UNORM, S::WXYZ);
    assert_eq!(
        float(r565.decode(&0xf800u16.to_le_bytes())),
        [1.0, 0.0, 0.0, 1.0]
    );
    assert_eq!(
        float(r565.decode(&0x07e0u16.to_le_bytes())),
        [0.0, 1.0, 0.0, 1.0]
    );
    // R4G4B4A4_UNORM_PACK16 (R in bits 12-15): 4_4_4_4 with XYZW.
    let r4444 = fmt(F::FMT6_4_4_4_4_UNORM, S::XYZW);
    assert_eq!(
        float(r4444.decode(&0xf00fu16.to_le_bytes())),
        [1.0, 0.0, 0.0, 1.0]
    );
    // A2B10G10R10: R in the low 10 bits, A in the top 2.
    let a2b10 = fmt(F::FMT6_10_10_10_2_UNORM, S::WZYX);
    assert_eq!(
        float(a2b10.decode(&0xc000_03ffu32.to_le_bytes())),
        [1.0, 0.0, 0.0, 1.0]
    );
    let mut out = [0u8; 4];
    a2b10.encode(Texel::Float([0.0, 1.0, 0.0, 1.0 / 3.0]), &mut out);
    assert_eq!(u32::from_le_bytes(out), 0x3ff << 10 | 1 << 30);
}

#[test]
fn swaps_that_would_move_a_missing_component_are_refused() {
    assert!(TexelFormat::new(F::FMT6_8_8_UNORM, S::WXYZ).is_err());
    assert!(TexelFormat::new(F::FMT6_5_6_5_UNORM, S::XYZW).is_err());
    assert!(TexelFormat::new(F::FMT6_32_UINT, S::XYZW).is_err());
    assert!(TexelFormat::new(F::FMT6_A8_UNORM, S::WXYZ).is_err());
    let e = TexelFormat::new(F::FMT6_8_8_UNORM, S::ZYXW).unwrap_err();
    assert_eq!(
        e.to_string(),
        "FMT6_8_8_UNORM with ZYXW: what this swap does to the format is not public"
    );
}

#[test]
fn alpha_padding_and_missing_components() {
    let a8 = fmt(F::FMT6_A8_UNORM, S::WZYX);
    assert_eq!(float(a8.decode(&[0xff])), [0.0, 0.0, 0.0, 1.0]);
    assert!(a8.has_component(3) && !a8.has_component(0));
    let rgbx = fmt(F::FMT6_8_8_8_X8_UNORM, S::WZYX);
    assert_eq!(float(rgbx.decode(&[0, 0, 0, 0])), [0.0, 0.0, 0.0, 1.0]);
    let mut out = [0xaa; 4];
    rgbx.encode(Texel::Float([1.0, 1.0, 1.0, 1.0]), &mut out);
    assert_eq!(out, [0xff, 0xff, 0xff, 0], "the X8 byte is written as 0");
    assert!(!rgbx.has_component(3));
    // Integer formats read a missing alpha as 1.
    assert_eq!(
        fmt(F::FMT6_16_16_SINT, S::WZYX).decode(&[0xfe, 0xff, 5, 0]),
        Texel::Int([(-2i32) as u32, 5, 0, 1])
    );
}

#[test]
fn normalized_and_fixed_point_conversions() {
    let s8 = fmt(F::FMT6_8_SNORM, S::WZYX);
    assert_eq!(float(s8.decode(&[0x80]))[0], -1.0);
    assert_eq!(float(s8.decode(&[0x81]))[0], -1.0);
    let mut out = [0u8; 1];
    s8.encode(Texel::Float([-1.0, 0.0, 0.0, 0.0]), &mut out);
    assert_eq!(out, [0x81]);
    let u8f = fmt(F::FMT6_8_UNORM, S::WZYX);
    // 0.5 * 255 = 127.5 rounds to even; NaN becomes 0.
    u8f.encode(Texel::Float([0.5, 0.0, 0.0, 0.0]), &mut out);
    assert_eq!(out, [128]);
    u8f.encode(Texel::Float([f32::NAN, 0.0, 0.0, 0.0]), &mut out);
    assert_eq!(out, [0]);
    let u32n = fmt(F::FMT6_32_UNORM, S::WZYX);
    assert_eq!(float(u32n.decode(&u32::MAX.to_le_bytes()))[0], 1.0);
    let fixed = fmt(F::FMT6_32_FIXED, S::WZYX);
    assert_eq!(float(fixed.decode(&0xfffe_8000u32.to_le_bytes()))[0], -1.5);
}

#[test]
fn packed_floats_read_and_write() {
    // 11:11:10: R = 1.0 (exponent 15), G = 0.5 * (1 + 1/64) (exponent 14,
    // mantissa 1), B = 2^-14 * 3/32 (a 10-bit denormal).
    let f = fmt(F::FMT6_11_11_10_FLOAT, S::WZYX);
    let bytes = (15u32 << 6 | (14 << 6 | 1) << 11 | 3 << 22).to_le_bytes();
    let v = [
        1.0,
        0.5 * (1.0 + 1.0 / 64.0),
        3.0 / 32.0 * 2f32.powi(-14),
        1.0,
    ];
    assert_eq!(float(f.decode(&bytes)), v);
    let mut out = [0u8; 4];
    f.encode(Texel::Float(v), &mut out);
    assert_eq!(out, bytes);
    // 9:9:9:5: 1.0, 0.5, 0.25 share exponent 16: mantissas 256, 128, 64.
    let e5 = fmt(F::FMT6_9_9_9_E5_FLOAT, S::WZYX);
    let bytes = (256u32 | 128 << 9 | 64 << 18 | 16 << 27).to_le_bytes();
    assert_eq!(float(e5.decode(&bytes)), [1.0, 0.5, 0.25, 1.0]);
    e5.encode(Texel::Float([1.0, 0.5, 0.25, 1.0]), &mut out);
    assert_eq!(out, bytes);
    // Halves.
    let h = fmt(F::FMT6_16_16_FLOAT, S::WZYX);
    assert_eq!(
        float(h.decode(&[0x00, 0x3c, 0x00, 0xc0])),
        [1.0, -2.0, 0.0, 1.0]
    );
}

#[test]
fn srgb_decodes_colour_but_not_alpha() {
    let f = fmt(F::FMT6_8_8_8_8_UNORM, S::WZYX).with_srgb(true).unwrap();
    // Linear 0.5 is sRGB 188 (0.73536 * 255 = 187.5); alpha stays linear.
    let mut out = [0u8; 4];
    f.encode(Texel::Float([0.5, 0.0, 1.0, 0.5]), &mut out);
    assert_eq!(out, [188, 0, 255, 128]);
    // ((188 / 255 + 0.055) / 1.055)^2.4 = 0.502886.
    let v = float(f.decode(&[188, 0, 255, 128]));
    assert!((v[0] - 0.502_886).abs() < 1e-5, "{v:?}");
    assert_eq!(v[3], 128.0 / 255.0);
    assert!(fmt(F::FMT6_16_FLOAT, S::WZYX).with_srgb(true).is_err());
}

#[test]
fn depth_stencil_colour_formats() {
    let z = fmt(F::FMT6_Z24_UNORM_S8_UINT, S::WZYX);
    assert_eq!(
        float(z.decode(&0xabff_ffffu32.to_le_bytes())),
        [1.0, 171.0, 0.0, 1.0]
    );
    let zu = fmt(F::FMT6_Z24_UINT_S8_UINT, S::WZYX);
    assert_eq!(
        zu.decode(&0x0712_3456u32.to_le_bytes()),
        Texel::Int([0x12_3456, 7, 0, 1])
    );
    // Turnip clears the depth of D24S8 through the RGBA8 alias with a mask
    // that keeps the stencil byte.
    let alias = fmt(F::FMT6_Z24_UNORM_S8_UINT_AS_R8G8B8A8, S::WZYX);
    let mut texel = 0x5a00_0000u32.to_le_bytes();
    alias.encode_masked(Texel::Float([1.0; 4]), 0b0111, &mut texel);
    assert_eq!(u32::from_le_bytes(texel), 0x5aff_ffff);
}

#[test]
fn integer_formats_take_raw_bits_from_float_texels() {
    // What a shader's untyped store does: the register bits go in as they are.
    let u = fmt(F::FMT6_32_UINT, S::WZYX);
    let mut out = [0u8; 4];
    u.encode(Texel::Float([1.0, 0.0, 0.0, 0.0]), &mut out);
    assert_eq!(u32::from_le_bytes(out), 0x3f80_0000);
    let f = fmt(F::FMT6_32_FLOAT, S::WZYX);
    f.encode(Texel::Int([0x4000_0000, 0, 0, 0]), &mut out);
    assert_eq!(f32::from_le_bytes(out), 2.0);
}

#[test]
fn element_layouts_of_compressed_and_video_formats() {
    let l = element_layout(F::FMT6_DXT1).unwrap();
    assert_eq!((l.bytes, l.block), (8, (4, 4)));
    let l = element_layout(F::FMT6_ASTC_6x5).unwrap();
    assert_eq!((l.bytes, l.block), (16, (6, 5)));
    let l = element_layout(F::FMT6_G8R8B8R8_422_UNORM).unwrap();
    assert_eq!((l.bytes, l.block), (4, (2, 1)));
    assert_eq!(element_layout(F::FMT6_16_16_16_FLOAT).unwrap().bytes, 6);
    assert!(element_layout(F::FMT6_NV12_4R).is_err());
    assert!(element_layout(F::FMT6_NONE).is_err());
}

/// Every value `a6xx_format` names either reads and writes texels, or is
/// listed here with why not, so the list of what the model does not decode
/// is visible and shrinks.
#[test]
fn formats_whose_texels_are_not_modelled() {
    let mut opaque = Vec::new();
    for v in 0..=0xffu32 {
        let f = F(v);
        let Some(name) = f.name(Chip::A6xx) else {
            continue;
        };
        if f == F::FMT6_NONE {
            continue;
        }
        if TexelFormat::new(f, S::WZYX).is_err() {
            opaque.push(name);
        }
    }
    let expected = [
        "FMT6_L8_A8_UNORM",
        "FMT6_G8R8B8R8_422_UNORM",
        "FMT6_R8G8R8B8_422_UNORM",
        "FMT6_R8_G8B8_2PLANE_420_UNORM",
        "FMT6_NV21",
        "FMT6_R8_G8_B8_3PLANE_420_UNORM",
        "FMT6_NV12_VU",
        "FMT6_NV12_4R",
        "FMT6_NV12_4R_Y",
        "FMT6_NV12_4R_UV",
        "FMT6_P010",
        "FMT6_P010_Y",
        "FMT6_P010_UV",
        "FMT6_TP10",
        "FMT6_TP10_Y",
        "FMT6_TP10_UV",
    ];
    let compressed: Vec<&str> = opaque
        .iter()
        .copied()
        .filter(|n| !expected.contains(n))
        .collect();
    for name in &compressed {
        assert!(
            ["ETC", "DXT", "RGTC", "BPTC", "ASTC"]
                .iter()
                .any(|p| name.contains(p)),
            "{name} is neither compressed nor in the list"
        );
    }
    assert_eq!(compressed.len(), 32, "{compressed:?}");
    for name in expected {
        assert!(
            opaque.contains(&name),
            "{name} decodes now: update the list"
        );
    }
    println!(
        "texel decode not modelled: {} compressed formats, and {}",
        compressed.len(),
        expected.join(", ")
    );
}
