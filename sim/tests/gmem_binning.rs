//! A binning pass and binned rendering from a hand-written stream: a
//! 32x32 target in two 32x16 bins, one triangle in the top bin only and
//! one across both. The binned frame must be the frame the same draws give
//! in sysmem, the top-only triangle must be skipped in the bottom bin and
//! drawn in the top one, and the other drawn in both.

mod common;

use common::blit_state::Surf;
use common::draw_rig::DrawRig;
use common::graphics_state::{draw_auto, program, set_marker, xy_pipeline, Setup, FLAT_FS, XY_VS};
use common::resolve_state::{resolve_bin, BlitEvent};
use common::{lo_hi, Stream, GPUS};
use parsnip_registers::enums::{
    A4xxIndexSize, A6xxBuffersLocation, A6xxFormat, A6xxMarker, A6xxRenderMode, PcDiPrimtype,
    PcDiSrcSel, PcDiVisCullMode, PseudoReg,
};
use parsnip_registers::packets::{self, CpDrawIndxOffsetDw0, CpSetBinData5OffsetDw0};
use parsnip_registers::regs::{self, a6xx, a7xx};
use parsnip_registers::Chip;

const W: u32 = 32;
const H: u32 = 32;
const BIN_H: u32 = 16;
/// Bytes between the pipes' draw streams.
const PITCH: u32 = 0x100;

/// A triangle in pixels y 2..12 (the top bin), then one across both bins.
const TRIANGLES: [[[f32; 2]; 3]; 2] = [
    [[2.0, 2.0], [20.0, 2.0], [2.0, 12.0]],
    [[24.0, 4.0], [30.0, 28.0], [18.0, 28.0]],
];

struct Scene {
    rig: DrawRig,
    target: u64,
    pipeline: Setup,
}

/// The scene, its target filled with `fill` bytes.
fn scene(gpu: &str, fill: u8) -> Scene {
    let mut rig = DrawRig::new(gpu);
    let verts: Vec<f32> = TRIANGLES
        .iter()
        .flatten()
        .flat_map(|v| [v[0] / (W as f32 / 2.0) - 1.0, v[1] / (H as f32 / 2.0) - 1.0])
        .collect();
    let vb = rig.floats(&verts);
    let vs = rig.program(XY_VS);
    let fs = rig.program(FLAT_FS);
    let target = rig.buffer(&vec![fill; (W * H * 4) as usize]);
    let pipeline = xy_pipeline(vs, fs, vb, verts.len() as u32 * 4, target, W, H);
    Scene {
        rig,
        target,
        pipeline,
    }
}

fn bin_control(s: &mut Stream, mode: A6xxRenderMode) {
    match s.chip {
        Chip::A6xx => s.reg(&a6xx::RbBinControl {
            binw: W,
            binh: BIN_H,
            render_mode: mode,
            buffers_location: A6xxBuffersLocation::BUFFERS_IN_GMEM,
            ..Default::default()
        }),
        Chip::A7xx => s.reg(&a7xx::RbBinControl {
            binw: W,
            binh: BIN_H,
            render_mode: mode,
            ..Default::default()
        }),
    };
}

/// Triangle `i`, using the visibility stream.
fn binned_draw(s: &mut Stream, i: u32) {
    let dw0 = CpDrawIndxOffsetDw0 {
        prim_type: PcDiPrimtype::DI_PT_TRILIST,
        source_select: PcDiSrcSel::DI_SRC_SEL_AUTO_INDEX,
        vis_cull: PcDiVisCullMode::USE_VISIBILITY,
        index_size: A4xxIndexSize(3),
        ..Default::default()
    };
    // The first index is VFD_INDEX_OFFSET's; set it per draw.
    s.reg(&regs::VfdIndexOffset(3 * i));
    s.pkt("CP_DRAW_INDX_OFFSET", &[dw0.to_raw(), 1, 3]);
}

/// How a bin runs its draws.
#[derive(Clone, Copy)]
enum BinDraws {
    /// In the bin's stream.
    Inline,
    /// In an IB2 with IB2 skipping armed (both CP_SKIP_IB2_ENABLE_*), as
    /// Turnip runs each bin's draws, followed by a second IB2 that writes
    /// 1 to the dword at this address.
    SkippingIb2(u64),
}

/// The binned frame: a binning pass over both draws, then per bin a clear,
/// the draws and a store. On a7xx the streams' addresses come by
/// CP_SET_PSEUDO_REG, as Turnip gives them there.
fn binned_frame(sc: &mut Scene) -> parsnip_sim::SubmitStats {
    binned_frame_of(sc, [0, 1], BinDraws::Inline)
}

/// [`binned_frame`] with the triangles in `order`, their draws run as
/// `draws` says.
fn binned_frame_of(sc: &mut Scene, order: [u32; 2], draws: BinDraws) -> parsnip_sim::SubmitStats {
    let streams = sc.rig.buffer(&vec![0xee; 2 * PITCH as usize]);
    let sizes = sc.rig.buffer(&[0xee; 4 * 32]);
    let mut s = sc.rig.stream();
    program(&mut s, &sc.pipeline);
    s.reg(&regs::VscBinSize {
        width: W,
        height: BIN_H,
    });
    s.reg(&regs::VscBinCount { nx: 1, ny: 2 });
    for p in 0..32 {
        let (y, n) = if p < 2 { (p, 1) } else { (0, 0) };
        s.reg_at(
            &regs::VscPipeConfigReg {
                x: 0,
                y,
                w: n,
                h: n,
            },
            p,
        );
    }
    s.reg(&regs::VscDrawStrmPitch(PITCH));
    s.reg(&regs::VscDrawStrmLimit(PITCH));
    match s.chip {
        Chip::A6xx => {
            s.reg(&regs::VscDrawStrmAddress(streams));
            s.reg(&regs::VscDrawStrmSizeAddress(sizes));
        }
        Chip::A7xx => {
            let mut payload = Vec::new();
            for (reg, at) in [
                (PseudoReg::DRAW_STRM_ADDRESS, streams),
                (PseudoReg::DRAW_STRM_SIZE_ADDRESS, sizes),
            ] {
                let [lo, hi] = lo_hi(at);
                payload.extend([
                    packets::CpSetPseudoRegDw0 { pseudo_reg: reg }.to_raw(),
                    lo,
                    hi,
                ]);
            }
            s.pkt("CP_SET_PSEUDO_REG", &payload);
        }
    }
    bin_control(&mut s, A6xxRenderMode::BINNING_PASS);
    set_marker(&mut s, A6xxMarker::RM6_BIN_VISIBILITY);
    for i in order {
        binned_draw(&mut s, i);
    }
    let mut bin_ib = sc.rig.stream();
    for i in order {
        binned_draw(&mut bin_ib, i);
    }
    for bin in 0..2 {
        let y0 = bin * BIN_H;
        bin_control(&mut s, A6xxRenderMode::RENDERING_PASS);
        s.reg(&regs::RbWindowOffset { x: 0, y: y0 });
        resolve_bin(&mut s, 0, y0, W, BIN_H);
        s.reg_at(&regs::RbMrtBaseGmem(0), 0);
        set_marker(&mut s, A6xxMarker::RM6_BIN_RENDER_START);
        let dw0 = CpSetBinData5OffsetDw0 {
            vsc_size: 1,
            vsc_n: 0,
            vsc_mask: 1,
            ..Default::default()
        };
        s.pkt(
            "CP_SET_BIN_DATA5_OFFSET",
            &[dw0.to_raw(), bin * PITCH, 0, 0],
        );
        let scissor = (0, y0, W - 1, y0 + BIN_H - 1);
        BlitEvent::clear(A6xxFormat::FMT6_8_8_8_8_UNORM, 0, [0; 4])
            .scissor(scissor.0, scissor.1, scissor.2, scissor.3)
            .emit(&mut s);
        match draws {
            BinDraws::Inline => s.dwords.extend_from_slice(&bin_ib.dwords),
            BinDraws::SkippingIb2(marker) => {
                s.pkt("CP_SKIP_IB2_ENABLE_GLOBAL", &[1]);
                s.pkt("CP_SKIP_IB2_ENABLE_LOCAL", &[1]);
                let ib = sc.rig.rig.place(&bin_ib);
                s.call(ib);
                let mut after = sc.rig.stream();
                after.mem_write(marker, 1);
                let ib = sc.rig.rig.place(&after);
                s.call(ib);
                s.pkt("CP_SKIP_IB2_ENABLE_GLOBAL", &[0]);
            }
        }
        set_marker(&mut s, A6xxMarker::RM6_BIN_RESOLVE);
        BlitEvent::store(
            0,
            Surf::linear(sc.target, A6xxFormat::FMT6_8_8_8_8_UNORM, W * 4),
        )
        .scissor(scissor.0, scissor.1, scissor.2, scissor.3)
        .emit(&mut s);
    }
    sc.rig.run(&s).unwrap_or_else(|e| panic!("{e}"))
}

/// The same two draws in sysmem, over a cleared target.
fn sysmem_frame(gpu: &str) -> Vec<u8> {
    let mut sc = scene(gpu, 0);
    let mut s = sc.rig.stream();
    program(&mut s, &sc.pipeline);
    draw_auto(&mut s, PcDiPrimtype::DI_PT_TRILIST, 6, 1);
    sc.rig.run(&s).unwrap_or_else(|e| panic!("{e}"));
    sc.rig.read(sc.target, (W * H * 4) as usize)
}

#[test]
fn a_binned_frame_is_the_sysmem_frame_and_skips_what_a_bin_does_not_see() {
    for gpu in GPUS {
        let want = sysmem_frame(gpu);
        let lit = want.chunks(4).filter(|p| p[3] == 255).count();
        let bottom = want[(W * BIN_H * 4) as usize..]
            .chunks(4)
            .filter(|p| p[3] == 255)
            .count();
        assert!(
            lit > bottom && bottom > 0,
            "{gpu}: the scene spans both bins"
        );

        // Poison that the bins' stores must overwrite everywhere.
        let mut sc = scene(gpu, 0x7f);
        let stats = binned_frame(&mut sc);
        let got = sc.rig.read(sc.target, (W * H * 4) as usize);
        let differ = (0..(W * H) as usize)
            .filter(|&i| got[4 * i..4 * i + 4] != want[4 * i..4 * i + 4])
            .count();
        assert_eq!(differ, 0, "{gpu}: pixels unlike the sysmem frame's");
        println!("{gpu}: {lit} pixels lit, as in sysmem; {stats:?}");
        // Both draws binned; the top-only one skipped in the bottom bin.
        assert_eq!(stats.binned_draws, 2, "{gpu}");
        assert_eq!(stats.skipped_draws, 1, "{gpu}");
        assert_eq!(stats.draws, 3, "{gpu}");
    }
}

#[test]
fn ib2_skipping_leaves_a_bins_draws_when_it_sees_no_more() {
    // The triangle across both bins first, then the top-only one. The top
    // bin sees both and draws both; the bottom bin draws the first and,
    // seeing nothing more, returns from the draw IB (the top-only draw is
    // neither drawn nor skipped by visibility there). In both bins nothing
    // is left for the IB2 after the draws: it is skipped and its marker
    // never written (adreno_pm4.xml, CP_SKIP_IB2_ENABLE_GLOBAL).
    for gpu in GPUS {
        let want = sysmem_frame(gpu);
        let mut sc = scene(gpu, 0x7f);
        let marker = sc.rig.words(&[0]);
        let stats = binned_frame_of(&mut sc, [1, 0], BinDraws::SkippingIb2(marker));
        let got = sc.rig.read(sc.target, (W * H * 4) as usize);
        assert!(got == want, "{gpu}: the frame is the sysmem frame");
        assert_eq!(
            (stats.binned_draws, stats.draws, stats.skipped_draws),
            (2, 3, 0),
            "{gpu}"
        );
        // One early return in the bottom bin, two IB2s skipped.
        assert_eq!(stats.ib2_skips, 3, "{gpu}");
        assert_eq!(sc.rig.read(marker, 4), [0; 4], "{gpu}");
        // Unarmed, the same draws in the bin's stream are all considered.
        let mut sc = scene(gpu, 0x7f);
        let stats = binned_frame_of(&mut sc, [1, 0], BinDraws::Inline);
        assert_eq!(
            (stats.draws, stats.skipped_draws, stats.ib2_skips),
            (3, 1, 0),
            "{gpu}"
        );
    }
}

#[test]
fn a_draw_using_visibility_without_a_stream_is_an_error() {
    for gpu in GPUS {
        let mut sc = scene(gpu, 0);
        let mut s = sc.rig.stream();
        program(&mut s, &sc.pipeline);
        bin_control(&mut s, A6xxRenderMode::RENDERING_PASS);
        set_marker(&mut s, A6xxMarker::RM6_BIN_RENDER_START);
        binned_draw(&mut s, 0);
        let err = sc.rig.run(&s).unwrap_err().to_string();
        assert!(
            err.contains("no CP_SET_BIN_DATA5 gave one and CP_SET_VISIBILITY_OVERRIDE is off"),
            "{gpu}: {err}"
        );
    }
}
