//! The generated typed API: values taken from the reference logs (a660 and
//! a740 Turnip streams) encode and decode to what freedreno printed, field
//! range errors are caught, and registers that moved or changed between
//! a6xx and a7xx resolve per chip.

use parsnip_registers::descriptors;
use parsnip_registers::encode::{self, FieldProblem};
use parsnip_registers::enums::{A3xxColorSwap, A6xxFormat, A6xxTileMode, VgtEventType};
use parsnip_registers::packets::CpEventWriteDw0;
use parsnip_registers::regs::{self, ArrayRegister, Register, RegisterError};
use parsnip_registers::{gpu, Chip};

#[test]
fn rb_mrt_buf_info_matches_the_a660_log() {
    // turnip/a660/triangle_sysmem.log: `RB_MRT[0].BUF_INFO: { COLOR_FORMAT =
    // FMT6_8_8_8_8_UNORM | COLOR_TILE_MODE = TILE6_3 | COLOR_SWAP = WZYX }`
    // for the dword 00000330 at offset 8822.
    let info = regs::a6xx::RbMrtBufInfo::from_raw(0x330);
    assert_eq!(info.color_format, A6xxFormat::FMT6_8_8_8_8_UNORM);
    assert_eq!(info.color_tile_mode, A6xxTileMode::TILE6_3);
    assert_eq!(info.color_swap, A3xxColorSwap::WZYX);
    assert_eq!(info.to_raw(), 0x330);
    let w = info.write(Chip::A6xx, 0).unwrap();
    assert_eq!((w.offset, w.value, w.is_64), (0x8822, 0x330, false));
    assert_eq!(regs::a6xx::RbMrtBufInfo::offset(Chip::A6xx, 1), Ok(0x882a));
    assert_eq!(
        info.write(Chip::A6xx, 8),
        Err(RegisterError::IndexOutOfRange {
            register: "RB_MRT[].BUF_INFO",
            chip: Chip::A6xx,
            index: 8,
            length: 8
        })
    );
    // The a7xx layout has fields a6xx does not (MUTABLEEN).
    let a7 = regs::a7xx::RbMrtBufInfo {
        mutableen: true,
        ..Default::default()
    };
    assert_eq!(a7.to_raw(), 1 << 16);
    assert!(matches!(
        a7.write(Chip::A6xx, 0),
        Err(RegisterError::NotOnChip { .. })
    ));
}

#[test]
fn hlsq_invalidate_cmd_moved_on_a7xx() {
    // a660 logs write HLSQ_INVALIDATE_CMD at bb08, a740 logs at ab1f.
    assert_eq!(
        <regs::a6xx::HlsqInvalidateCmd as Register>::offset(Chip::A6xx),
        Some(0xbb08)
    );
    assert_eq!(
        <regs::a7xx::HlsqInvalidateCmd as Register>::offset(Chip::A7xx),
        Some(0xab1f)
    );
    assert_eq!(
        <regs::a6xx::HlsqInvalidateCmd as Register>::offset(Chip::A7xx),
        None
    );
    // `{ VS_STATE | ... | CS_BINDLESS = 0x1f | GFX_BINDLESS = 0x1f }` = 000fffff on a660.
    let a6 = regs::a6xx::HlsqInvalidateCmd::from_raw(0x000f_ffff);
    assert!(a6.vs_state && a6.gfx_ibo && a6.cs_shared_const);
    assert_eq!((a6.cs_bindless, a6.gfx_bindless), (0x1f, 0x1f));
    assert_eq!(a6.to_raw(), 0x000f_ffff);
    // `... CS_BINDLESS = 0xff | GFX_BINDLESS = 0xff }` = 01fffeff on a740.
    let a7 = regs::a7xx::HlsqInvalidateCmd::from_raw(0x01ff_feff);
    assert_eq!((a7.cs_bindless, a7.gfx_bindless), (0xff, 0xff));
    assert_eq!(a7.to_raw(), 0x01ff_feff);
}

#[test]
fn out_of_range_fields_are_errors() {
    let off = regs::SpWindowOffset { x: 1 << 14, y: 0 };
    let err = off.try_to_raw().unwrap_err();
    assert_eq!(err.field, "X");
    assert_eq!(
        err.problem,
        FieldProblem::OutOfRange {
            value: 1 << 14,
            min: 0,
            max: (1 << 14) - 1
        }
    );
    assert!(matches!(
        off.write(Chip::A6xx),
        Err(RegisterError::Field(_))
    ));
    // RB_2D_DST_PITCH holds the pitch >> 6: `RB_2D_DST_PITCH: 256` is 00000004.
    assert_eq!(regs::Rb2dDstPitch(256).to_raw(), 4);
    assert_eq!(regs::Rb2dDstPitch::from_raw(4), regs::Rb2dDstPitch(256));
    assert_eq!(
        regs::Rb2dDstPitch(100).try_to_raw().unwrap_err().problem,
        FieldProblem::Misaligned {
            value: 100,
            alignment: 64
        }
    );
}

#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "is outside")]
fn to_raw_asserts_in_debug_builds() {
    let _ = regs::SpWindowOffset { x: 1 << 14, y: 0 }.to_raw();
}

#[test]
fn fixed_and_float_values_round_trip() {
    // GRAS_SU_POINT_SIZE: signed fixed point, 4 fraction bits, bits 0..=15.
    assert_eq!(regs::GrasSuPointSize(1.5).to_raw(), 24);
    assert_eq!(regs::GrasSuPointSize(-0.5).to_raw(), 0xfff8);
    assert_eq!(
        regs::GrasSuPointSize::from_raw(0xfff8),
        regs::GrasSuPointSize(-0.5)
    );
    assert!(regs::GrasSuPointSize(4096.0).try_to_raw().is_err());
    for raw in 0..=0xffffu32 {
        assert_eq!(regs::GrasSuPointSize::from_raw(raw).to_raw(), raw);
    }
    assert_eq!(regs::RbBlendRedF32(0.25).to_raw(), 0.25f32.to_bits());
    // Every half converts to f32 and back exactly.
    for h in 0..=0xffffu16 {
        let f = encode::half_to_f32(h);
        if f.is_nan() {
            assert!(encode::f32_to_half(f).is_some_and(|b| encode::half_to_f32(b).is_nan()));
        } else {
            assert_eq!(encode::f32_to_half(f), Some(h), "{h:04x}");
        }
    }
    assert_eq!(encode::f32_to_half(1.0 / 3.0), None);
}

#[test]
fn packet_dwords_and_descriptors() {
    // `CP_EVENT_WRITE ... { EVENT = CACHE_INVALIDATE }` is 00000031 on a660.
    let dw = CpEventWriteDw0::from_raw(0x31);
    assert_eq!(dw.event, VgtEventType::CACHE_INVALIDATE);
    assert_eq!(dw.event.name(Chip::A6xx), Some("CACHE_INVALIDATE"));
    // The same event number is CACHE_CLEAN on a7xx.
    assert_eq!(dw.event.name(Chip::A7xx), Some("CACHE_CLEAN"));
    assert_eq!(dw.to_raw(), 0x31);
    assert_eq!(A6xxFormat(0xfe).name(Chip::A6xx), None);

    let tex = descriptors::a7xx::TextureDescriptor {
        fmt: A6xxFormat::FMT6_8_8_8_8_UNORM,
        width: 64,
        height: 64,
        pitch: 256,
        base_lo: 0x2_7000,
        base_hi: 1,
        mutableen: true,
        ..Default::default()
    };
    let raw = tex.to_raw();
    assert_eq!(raw[0] >> 22 & 0xff, 0x30);
    assert_eq!(raw[1], 64 | 64 << 15 | 1 << 31);
    assert_eq!(raw[2] >> 7, 256);
    assert_eq!((raw[4], raw[5]), (0x2_7000, 1));
    // PITCH and STRUCTSIZETEXELS share bits (a6xx.xml): decoding fills
    // both, and encoding the decoded descriptor gives the same dwords.
    let back = descriptors::a7xx::TextureDescriptor::from_raw(&raw);
    assert_eq!((back.pitch, back.structsizetexels), (256, 256 << 7 >> 4));
    assert_eq!(back.to_raw(), raw);
    let err = descriptors::a6xx::TextureDescriptor {
        width: 1 << 15,
        ..Default::default()
    }
    .try_to_raw()
    .unwrap_err();
    // WIDTH is bits 0-14 of dword 1 (a6xx.xml's A6XX_TEX_CONST_1).
    assert_eq!((err.register, err.field), ("A6XX_TEX_CONST", "WIDTH"));
    assert_eq!(
        err.problem,
        FieldProblem::OutOfRange {
            value: 1 << 15,
            min: 0,
            max: (1 << 15) - 1
        }
    );
}

#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "A6XX_TEX_CONST.HEIGHT: 32768 is outside 0..=32767")]
fn descriptor_to_raw_asserts_in_debug_builds() {
    let _ = descriptors::a7xx::TextureDescriptor {
        height: 1 << 15,
        ..Default::default()
    }
    .to_raw();
}

#[test]
fn gpu_catalogue_lookups() {
    // The Turnip traces' RD_CHIP_IDs (reference/turnip/README.md).
    assert_eq!(gpu::by_chip_id(0x0606_00ff).unwrap().name, "a660");
    assert_eq!(gpu::by_chip_id(0x4305_0a01).unwrap().name, "a740");
    // The kernel's chip id for an a660, through the patch wildcard.
    assert_eq!(gpu::by_chip_id(0x0606_0001).unwrap().gen, 4);
    // a crash.devcore's revision 6.3.0.2 is an a630.
    assert_eq!(gpu::by_chip_id(0x0603_0002).unwrap().gpu_id, 630);
    assert_eq!(gpu::by_gpu_id(640).unwrap().chip, Chip::A6xx);
    assert_eq!(gpu::by_name("A750").unwrap().chip, Chip::A7xx);
    let err = gpu::by_name("a505").unwrap_err().to_string();
    assert!(err.contains("a505") && err.contains("a618, a630"), "{err}");
    assert!(gpu::by_chip_id(0x0505_0000).is_err());
}
