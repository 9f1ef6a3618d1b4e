//! CP_EXEC_CS, CP_LOAD_STATE6 and CP_SET_DRAW_STATE as the command
//! processor sees them: what it gathers into a ComputeDispatch (recorded
//! instead of run), strict mode, and when draw-state groups run.

mod common;

use common::compute_state::{exec_cs, program_cs, Omit, BINDLESS, PROGRAM, R63_X};
use common::{lo_hi, Rig, Stream, DATA, GPUS};
use parsnip_registers::enums::{A6xxStateBlock, A6xxStateSrc, A6xxStateType, A6xxThreadsize};
use parsnip_registers::packets::{CpExecCsIndirectDw3, CpLoadState6Dw0, CpSetDrawStateDw0};
use parsnip_registers::regs::{self, a6xx, Register};
use parsnip_registers::Chip;
use parsnip_sim::compute_dispatch::{DescriptorSource, RegId};
use parsnip_sim::report::{ErrorKind, StreamProblem};

/// CP_LOAD_STATE6_FRAG of `dw0`, from `ext` or with `data` in the packet.
fn load_state(s: &mut Stream, dw0: CpLoadState6Dw0, ext: u64, data: &[u32]) {
    let [lo, hi] = lo_hi(ext);
    let mut p = vec![dw0.to_raw(), lo, hi];
    p.extend_from_slice(data);
    s.pkt("CP_LOAD_STATE6_FRAG", &p);
}

/// The compute stage's constants from vec4 `dst_off` on, in the packet.
fn load_consts(s: &mut Stream, dst_off: u32, data: &[u32]) {
    let dw0 = CpLoadState6Dw0 {
        dst_off,
        state_type: A6xxStateType::ST6_CONSTANTS,
        state_src: A6xxStateSrc::SS6_DIRECT,
        state_block: A6xxStateBlock::SB6_CS_SHADER,
        num_unit: data.len() as u32 / 4,
    };
    load_state(s, dw0, 0, data);
}

#[test]
fn exec_cs_gathers_the_dispatch_the_registers_describe() {
    for gpu in GPUS {
        let mut rig = Rig::new(gpu);
        let mut s = rig.stream();
        program_cs(&mut s, Omit::default());
        // c0 = (4, 1, 1, 0), c1.w = 64: the consts Turnip's stream loads.
        load_consts(&mut s, 0, &[4, 1, 1, 0, 0, 0, 0, 64]);
        exec_cs(&mut s, [4, 3, 2]);
        let stats = rig.run(&s).unwrap();
        assert_eq!(stats.dispatches, 1);
        let d = &rig.dispatches()[0];
        assert_eq!(d.a7xx, gpu == "a740");
        assert_eq!(d.program_iova, PROGRAM);
        assert_eq!(d.program_len, 32, "{gpu}: INSTRLEN 2 is 32 instructions");
        assert_eq!(d.wave_size, 64);
        assert_eq!((d.full_regs, d.half_regs, d.merged_regs), (3, 1, true));
        assert_eq!(d.local_size, [64, 2, 1]);
        assert_eq!(d.group_count, [4, 3, 2]);
        assert_eq!(d.group_offset, [0, 0, 0]);
        assert_eq!(d.work_group_id, RegId(0xc0));
        assert_eq!(d.local_id, RegId(0));
        assert!(!d.local_size_reg.is_used() && !d.linear_local_id.is_used());
        // CONSTLEN 8 vec4s: the two loaded, then zeros.
        assert_eq!(d.consts.len(), 32);
        assert_eq!(&d.consts[..8], &[4, 1, 1, 0, 0, 0, 0, 64]);
        assert!(d.consts[8..].iter().all(|&c| c == 0));
        // SHARED_SIZE 3: (3 + 1) KiB (a6xx.xml).
        assert_eq!(d.shared_size, 4096);
        assert_eq!((d.private_iova, d.private_per_fiber), (0, 0));
        let base = d.bindless[0].unwrap();
        assert_eq!((base.iova, base.descriptor_size), (BINDLESS, 64));
        assert!(d.bindless[1..].iter().all(Option::is_none));
        assert_eq!(d.bindless.len(), if gpu == "a660" { 5 } else { 8 });
        assert!(matches!(d.ibos, DescriptorSource::None));
        assert_eq!(d.instruction_budget, common::test_options().shader_budget);
    }
}

#[test]
fn exec_cs_indirect_reads_the_group_counts_from_memory() {
    for gpu in GPUS {
        let mut rig = Rig::new(gpu);
        for (i, n) in [7u32, 1, 5].iter().enumerate() {
            rig.write_u32(DATA + 0x400 + 4 * i as u64, *n);
        }
        let mut s = rig.stream();
        program_cs(&mut s, Omit::default());
        let local = CpExecCsIndirectDw3 {
            localsizex: 63,
            localsizey: 1,
            localsizez: 0,
        }
        .to_raw();
        let [lo, hi] = lo_hi(DATA + 0x400);
        s.pkt("CP_EXEC_CS_INDIRECT", &[0, lo, hi, local]);
        // Counts (5, 0, 0): a dispatch of zero groups launches nothing.
        let [lo, hi] = lo_hi(DATA + 0x408);
        s.pkt("CP_EXEC_CS_INDIRECT", &[0, lo, hi, local]);
        rig.run(&s).unwrap();
        let d = rig.dispatches();
        assert_eq!(d.len(), 1, "{gpu}");
        assert_eq!(d[0].group_count, [7, 1, 5]);
    }
}

#[test]
fn strict_mode_names_a_register_the_dispatch_needs() {
    for gpu in GPUS {
        let mut rig = Rig::new(gpu);
        let mut s = rig.stream();
        program_cs(&mut s, Omit { ctrl_reg0: true });
        exec_cs(&mut s, [1, 1, 1]);
        let err = rig.run(&s).unwrap_err();
        assert!(matches!(err.kind, ErrorKind::Register(_)), "{err}");
        assert!(
            err.to_string()
                .starts_with("strict mode: SP_CS_CTRL_REG0 (0xa9b0) is read but was never written"),
            "{err}"
        );
        assert_eq!(err.site.packet().unwrap().packet, "CP_EXEC_CS");
        println!("{gpu}: {err}");

        // The same stream runs when strict mode is off.
        let mut lax = Rig::with_options(
            gpu,
            parsnip_sim::SimOptions {
                strict: false,
                ..common::test_options()
            },
        );
        lax.run(&s).unwrap();
        assert_eq!(lax.dispatches()[0].wave_size, 64);
    }
}

#[test]
fn constants_load_directly_and_from_memory() {
    for gpu in GPUS {
        let mut rig = Rig::new(gpu);
        for i in 0..8 {
            rig.write_u32(DATA + 0x600 + 4 * i, 100 + i as u32);
        }
        let mut s = rig.stream();
        program_cs(&mut s, Omit::default());
        load_consts(&mut s, 1, &[1, 2, 3, 4]);
        // Two vec4s from memory at c2, read when the packet runs.
        let indirect = CpLoadState6Dw0 {
            dst_off: 2,
            state_type: A6xxStateType::ST6_CONSTANTS,
            state_src: A6xxStateSrc::SS6_INDIRECT,
            state_block: A6xxStateBlock::SB6_CS_SHADER,
            num_unit: 2,
        };
        load_state(&mut s, indirect, DATA + 0x600, &[]);
        s.mem_write(DATA + 0x600, 999);
        exec_cs(&mut s, [1, 1, 1]);
        rig.run(&s).unwrap();
        let c = &rig.dispatches()[0].consts;
        assert_eq!(&c[4..8], &[1, 2, 3, 4], "{gpu}");
        assert_eq!(
            &c[8..16],
            &[100, 101, 102, 103, 104, 105, 106, 107],
            "{gpu}"
        );
    }
}

#[test]
fn push_constants_reach_the_dispatch_as_each_generation_carries_them() {
    // Turnip's loop_push streams (reference/turnip/*/loop_push.log): on a660
    // HLSQ_SHARED_CONSTS.ENABLE and a CP_LOAD_STATE6_FRAG into SB6_IBO with
    // ST6_UBO, 4 units of one dword; on a740 the HLSQ_SHARED_CONSTS_IMM
    // registers.
    let push = [37, 1_664_525, 1_013_904_223, 7];
    for gpu in GPUS {
        let mut rig = Rig::new(gpu);
        let mut s = rig.stream();
        program_cs(&mut s, Omit::default());
        if gpu == "a740" {
            s.dword_array("HLSQ_SHARED_CONSTS_IMM", &push);
        } else {
            s.reg(&regs::HlsqSharedConsts { enable: true });
            let dw0 = CpLoadState6Dw0 {
                dst_off: 0,
                state_type: A6xxStateType::ST6_UBO,
                state_src: A6xxStateSrc::SS6_DIRECT,
                state_block: A6xxStateBlock::SB6_IBO,
                num_unit: 4,
            };
            load_state(&mut s, dw0, 0, &push);
        }
        exec_cs(&mut s, [1, 1, 1]);
        rig.run(&s).unwrap();
        let shared = &rig.dispatches()[0].shared_consts;
        let loaded: Vec<Option<u32>> = push.iter().map(|&v| Some(v)).collect();
        if gpu == "a740" {
            assert_eq!(shared.imm.len(), 64);
            assert_eq!(&shared.imm[..4], &loaded[..]);
            assert_eq!(shared.imm[4], None);
            assert!(shared.mapped.is_none());
        } else {
            let pool = shared.mapped.as_ref().expect("enabled: mapped at c504");
            assert_eq!(&pool[..4], &loaded[..]);
            assert_eq!(pool[4], None);
        }
    }
}

#[test]
fn loaded_ibos_and_the_ibo_register_whichever_came_last() {
    for gpu in GPUS {
        let mut rig = Rig::new(gpu);
        let mut s = rig.stream();
        program_cs(&mut s, Omit::default());
        s.reg(&regs::SpCsIbo(DATA + 0x800));
        s.reg(&regs::SpCsIboCount(2));
        exec_cs(&mut s, [1, 1, 1]);
        let descriptor: Vec<u32> = (0..16).collect();
        let ibo = CpLoadState6Dw0 {
            dst_off: 1,
            state_type: A6xxStateType::ST6_IBO,
            state_src: A6xxStateSrc::SS6_DIRECT,
            state_block: A6xxStateBlock::SB6_CS_SHADER,
            num_unit: 1,
        };
        load_state(&mut s, ibo, 0, &descriptor);
        exec_cs(&mut s, [1, 1, 1]);
        rig.run(&s).unwrap();
        let d = rig.dispatches();
        assert!(
            matches!(d[0].ibos, DescriptorSource::Memory { iova, count: 2 } if iova == DATA + 0x800),
            "{gpu}: {:?}",
            d[0].ibos
        );
        let DescriptorSource::Loaded(entries) = &d[1].ibos else {
            panic!("{gpu}: {:?}", d[1].ibos);
        };
        assert_eq!(entries.len(), 2);
        assert!(entries[0].is_empty(), "slot 0 was never loaded");
        assert_eq!(entries[1], descriptor);
    }
}

#[test]
fn a_bindless_prefetch_needs_its_base_programmed() {
    for gpu in GPUS {
        let mut rig = Rig::new(gpu);
        let mut s = rig.stream();
        // Base 1 in EXT_SRC_ADDR bits 28-31 (Turnip's emit_load_state).
        let prefetch = CpLoadState6Dw0 {
            state_type: A6xxStateType::ST6_IBO,
            state_src: A6xxStateSrc::SS6_BINDLESS,
            state_block: A6xxStateBlock::SB6_CS_SHADER,
            num_unit: 1,
            ..Default::default()
        };
        load_state(&mut s, prefetch, 1 << 28, &[]);
        rig.run_expecting(&s, "SP_CS_BINDLESS_BASE[0x1].DESCRIPTOR (0xa9ea) is read");
    }
}

fn set_draw_state(s: &mut Stream, dw0: CpSetDrawStateDw0, ib: parsnip_sim::IbRange) {
    let [lo, hi] = lo_hi(ib.iova);
    s.pkt(
        "CP_SET_DRAW_STATE",
        &[
            CpSetDrawStateDw0 {
                count: ib.dwords,
                ..dw0
            }
            .to_raw(),
            lo,
            hi,
        ],
    );
}

#[test]
fn draw_state_groups_run_at_the_next_dispatch() {
    for gpu in GPUS {
        let mut rig = Rig::new(gpu);
        // The group bumps a counter in memory each time it runs.
        let counter = DATA + 0x900;
        let mut group = rig.stream();
        let [lo, hi] = lo_hi(counter);
        group.pkt(
            "CP_MEM_TO_MEM",
            &[0, lo, hi, lo, hi, lo, hi], // counter = counter + counter
        );
        let group = rig.place(&group);
        rig.write_u32(counter, 1);

        let gmem = CpSetDrawStateDw0 {
            gmem: true,
            group_id: 3,
            ..Default::default()
        };
        let mut s = rig.stream();
        program_cs(&mut s, Omit::default());
        set_draw_state(&mut s, gmem, group);
        // Deferred: not run yet when this write happens.
        let [olo, ohi] = lo_hi(DATA + 0x910);
        s.pkt("CP_MEM_TO_MEM", &[0, olo, ohi, lo, hi]);
        exec_cs(&mut s, [1, 1, 1]);
        // Set again to the same IB: not run again (firmware skips it)...
        set_draw_state(&mut s, gmem, group);
        exec_cs(&mut s, [1, 1, 1]);
        // ...unless DIRTY.
        set_draw_state(
            &mut s,
            CpSetDrawStateDw0 {
                dirty: true,
                ..gmem
            },
            group,
        );
        exec_cs(&mut s, [1, 1, 1]);
        // A SYSMEM-only group does not run in compute (GMEM) mode.
        set_draw_state(
            &mut s,
            CpSetDrawStateDw0 {
                sysmem: true,
                group_id: 4,
                ..Default::default()
            },
            group,
        );
        exec_cs(&mut s, [1, 1, 1]);
        rig.run(&s).unwrap();
        assert_eq!(rig.read_u32(DATA + 0x910), 1, "{gpu}: deferred");
        assert_eq!(rig.read_u32(counter), 4, "{gpu}: ran twice (1 -> 2 -> 4)");
    }
}

#[test]
fn draw_state_runs_at_once_with_load_immed_or_set_mode() {
    for gpu in GPUS {
        let mut rig = Rig::new(gpu);
        let mut group = rig.stream();
        group.mem_write(DATA, 0xd5);
        let group = rig.place(&group);
        let mut s = rig.stream();
        set_draw_state(
            &mut s,
            CpSetDrawStateDw0 {
                load_immed: true,
                group_id: 1,
                ..Default::default()
            },
            group,
        );
        rig.run(&s).unwrap();
        assert_eq!(rig.read_u32(DATA), 0xd5, "{gpu}");

        let mut group = rig.stream();
        group.mem_write(DATA + 4, 0xd6);
        let group = rig.place(&group);
        let mut s = rig.stream();
        s.pkt("CP_SET_MODE", &[1]);
        set_draw_state(
            &mut s,
            CpSetDrawStateDw0 {
                gmem: true,
                group_id: 2,
                ..Default::default()
            },
            group,
        );
        rig.run(&s).unwrap();
        assert_eq!(rig.read_u32(DATA + 4), 0xd6, "{gpu}");
    }
}

#[test]
fn a_group_run_under_set_mode_still_runs_at_the_next_dispatch() {
    // Turnip's binning pass runs under CP_SET_MODE(1) and sets its GMEM
    // groups there: they run at once, and must run again for the bins,
    // since binning-only groups in between rewrote the same registers.
    for gpu in GPUS {
        let mut rig = Rig::new(gpu);
        let counter = DATA + 0x900;
        let mut group = rig.stream();
        let [lo, hi] = lo_hi(counter);
        group.pkt("CP_MEM_TO_MEM", &[0, lo, hi, lo, hi, lo, hi]);
        let group = rig.place(&group);
        rig.write_u32(counter, 1);
        let gmem = CpSetDrawStateDw0 {
            gmem: true,
            group_id: 5,
            ..Default::default()
        };
        let mut s = rig.stream();
        program_cs(&mut s, Omit::default());
        s.pkt("CP_SET_MODE", &[1]);
        set_draw_state(&mut s, gmem, group);
        s.pkt("CP_SET_MODE", &[0]);
        exec_cs(&mut s, [1, 1, 1]);
        // That dispatch's run counts: the same group again is skipped.
        set_draw_state(&mut s, gmem, group);
        exec_cs(&mut s, [1, 1, 1]);
        rig.run(&s).unwrap();
        assert_eq!(
            rig.read_u32(counter),
            4,
            "{gpu}: at CP_SET_DRAW_STATE and at the first dispatch (1 -> 2 -> 4)"
        );
    }
}

#[test]
fn an_ib_call_inside_draw_state_is_too_deep() {
    for gpu in GPUS {
        let mut rig = Rig::new(gpu);
        let mut inner = rig.stream();
        inner.mem_write(DATA, 1);
        let inner = rig.place(&inner);
        let mut group = rig.stream();
        group.call(inner);
        let group = rig.place(&group);
        let mut s = rig.stream();
        set_draw_state(
            &mut s,
            CpSetDrawStateDw0 {
                load_immed: true,
                ..Default::default()
            },
            group,
        );
        let err = rig.run(&s).unwrap_err();
        assert!(
            matches!(
                err.kind,
                ErrorKind::BadStream(StreamProblem::TooDeep { .. })
            ),
            "{err}"
        );
        assert!(err.to_string().contains("an IB called from SDS"), "{err}");
    }
}

#[test]
fn mismatched_thread_sizes_are_reported() {
    let mut rig = Rig::new("a660");
    let mut s = rig.stream();
    program_cs(&mut s, Omit::default());
    s.reg(&a6xx::SpCsCntl1 {
        linearlocalidregid: R63_X,
        threadsize: A6xxThreadsize::THREAD128,
        ..Default::default()
    });
    exec_cs(&mut s, [1, 1, 1]);
    rig.run_expecting(&s, "SP_CS_CNTL_0/1 and HLSQ_CS_CNTL_0/1 disagree");
    // The register offsets the test relies on, from a6xx.xml.
    assert_eq!(a6xx::SpCsCntl1::offset(Chip::A6xx), Some(0xa9c3));
}
