//! IB levels, conditional execution, waits, events and the errors of bad
//! streams, on a660 and a740.

mod common;

use std::time::Duration;

use common::graphics_state::set_marker;
use common::{lo_hi, Rig, DATA, GPUS, UNMAPPED};
use parsnip_registers::enums::{
    A6xxMarker, AmbleType, CompareMode, CpCondFunction, CpThread, EventWriteSrc, PollMemoryType,
    VgtEventType,
};
use parsnip_registers::packets::{
    self, CpCondRegExecDw1PredTest, CpCondWrite5Dw0, CpEventWrite7Dw0, CpEventWriteDw0,
    CpRegTestDw0, CpSetAmbleDw2, CpThreadControlDw0, CpWaitRegMemDw0,
};
use parsnip_registers::pm4::pkt7;
use parsnip_registers::regs::{self, Register};
use parsnip_registers::Chip;
use parsnip_sim::report::{ErrorKind, HangCause, IbLevel, StreamProblem};

/// The fields of CP_COND_REG_EXEC's first dword the tests set.
#[derive(Default)]
struct CondRegExec {
    mode: CompareMode,
    reg0: u32,
    pred_bit: u32,
    gmem: bool,
    sysmem: bool,
}

/// CP_COND_REG_EXEC's first dword in `chip`'s layout.
fn cond_reg_exec_dw0(chip: Chip, c: CondRegExec) -> u32 {
    match chip {
        Chip::A6xx => packets::a6xx::CpCondRegExecDw0 {
            mode: c.mode,
            reg0: c.reg0,
            pred_bit: c.pred_bit,
            gmem: c.gmem,
            sysmem: c.sysmem,
            ..Default::default()
        }
        .to_raw(),
        Chip::A7xx => packets::a7xx::CpCondRegExecDw0 {
            mode: c.mode,
            reg0: c.reg0,
            pred_bit: c.pred_bit,
            gmem: c.gmem,
            sysmem: c.sysmem,
            ..Default::default()
        }
        .to_raw(),
    }
}

#[test]
fn an_ib2_runs_where_it_is_called() {
    for gpu in GPUS {
        let mut rig = Rig::new(gpu);
        let mut ib2 = rig.stream();
        ib2.mem_write(DATA, 2);
        let ib2 = rig.place(&ib2);
        let mut ib1 = rig.stream();
        ib1.mem_write(DATA, 1);
        ib1.call(ib2);
        ib1.mem_write(DATA + 4, 3);
        let stats = rig.run(&ib1).unwrap();
        assert_eq!(
            rig.read_u32(DATA),
            2,
            "{gpu}: the IB2 ran after the first write"
        );
        assert_eq!(rig.read_u32(DATA + 4), 3, "{gpu}");
        assert_eq!(stats.packets, 4);
    }
}

#[test]
fn an_ib_called_from_an_ib2_is_too_deep() {
    for gpu in GPUS {
        let mut rig = Rig::new(gpu);
        let mut ib3 = rig.stream();
        ib3.mem_write(DATA, 3);
        let ib3 = rig.place(&ib3);
        let mut ib2 = rig.stream();
        ib2.call(ib3);
        let ib2 = rig.place(&ib2);
        let mut ib1 = rig.stream();
        ib1.call(ib2);
        let err = rig.run(&ib1).unwrap_err();
        assert_eq!(
            err.kind,
            ErrorKind::BadStream(StreamProblem::TooDeep { from: IbLevel::Ib2 })
        );
        let site = err.site.packet().unwrap();
        assert_eq!(
            (site.level, site.ib, site.dword),
            (IbLevel::Ib2, ib2.iova, 0)
        );
        assert_eq!(rig.read_u32(DATA), 0, "{gpu}: the IB3 did not run");
        println!("{gpu}: {err}");
    }
}

#[test]
fn an_ib_chain_continues_at_the_same_level() {
    for gpu in GPUS {
        let mut rig = Rig::new(gpu);
        let mut next = rig.stream();
        next.mem_write(DATA + 4, 7);
        let next = rig.place(&next);
        let mut ib1 = rig.stream();
        ib1.mem_write(DATA, 6);
        let [lo, hi] = lo_hi(next.iova);
        ib1.pkt("CP_INDIRECT_BUFFER_CHAIN", &[lo, hi, next.dwords]);
        ib1.mem_write(DATA + 8, 8);
        rig.run(&ib1).unwrap();
        assert_eq!(rig.read_u32(DATA), 6, "{gpu}");
        assert_eq!(rig.read_u32(DATA + 4), 7, "{gpu}");
        assert_eq!(
            rig.read_u32(DATA + 8),
            0,
            "{gpu}: nothing after the chain runs"
        );
    }
}

#[test]
fn cond_exec_skips_unless_addr0_is_set_and_addr1_below_ref() {
    for gpu in GPUS {
        let mut rig = Rig::new(gpu);
        // Turnip's query-copy test: "0 < available < 2".
        let flag = DATA + 0x100;
        let mut s = rig.stream();
        let [lo, hi] = lo_hi(flag);
        for (i, _) in [0u32, 1].iter().enumerate() {
            s.pkt("CP_COND_EXEC", &[lo, hi, lo, hi, 2, 4]);
            s.mem_write(DATA + 4 * i as u64, 0x55);
            // Set the flag for the second round.
            s.mem_write(flag, 1);
        }
        rig.run(&s).unwrap();
        assert_eq!(rig.read_u32(DATA), 0, "{gpu}: flag 0 skips");
        assert_eq!(rig.read_u32(DATA + 4), 0x55, "{gpu}: flag 1 runs");
    }
}

#[test]
fn reg_test_sets_the_predicate_cond_reg_exec_tests() {
    for gpu in GPUS {
        let mut rig = Rig::new(gpu);
        let reg = regs::SpCsInstrlen::offset(rig.chip()).unwrap();
        let mut s = rig.stream();
        s.reg(&regs::SpCsInstrlen(0b100));
        for (bit, out) in [(2u32, DATA), (1, DATA + 4)] {
            let test = CpRegTestDw0 {
                reg,
                bit,
                pred_bit: 3,
                ..Default::default()
            };
            s.pkt("CP_REG_TEST", &[test.to_raw()]);
            let dw0 = cond_reg_exec_dw0(
                s.chip,
                CondRegExec {
                    mode: CompareMode::PRED_TEST,
                    pred_bit: 3,
                    ..Default::default()
                },
            );
            s.pkt(
                "CP_COND_REG_EXEC",
                &[dw0, CpCondRegExecDw1PredTest { dwords: 4 }.to_raw()],
            );
            s.mem_write(out, 0x77);
        }
        rig.run(&s).unwrap();
        assert_eq!(rig.read_u32(DATA), 0x77, "{gpu}: bit 2 is set");
        assert_eq!(rig.read_u32(DATA + 4), 0, "{gpu}: bit 1 is clear");
    }
}

#[test]
fn cond_reg_exec_compares_registers_and_render_modes() {
    for gpu in GPUS {
        let mut rig = Rig::new(gpu);
        let a = regs::SpCsInstrlen::offset(rig.chip()).unwrap();
        let b = regs::SpCsObjFirstExecOffset::offset(rig.chip()).unwrap();
        let mut s = rig.stream();
        s.reg(&regs::SpCsInstrlen(9));
        s.reg(&regs::SpCsObjFirstExecOffset(9));
        let reg1 = match s.chip {
            Chip::A6xx => packets::a6xx::CpCondRegExecDw1RegCompare { reg1: b }.to_raw(),
            Chip::A7xx => packets::a7xx::CpCondRegExecDw1RegCompare {
                reg1: b,
                onchip_mem: false,
            }
            .to_raw(),
        };
        let eq = cond_reg_exec_dw0(
            s.chip,
            CondRegExec {
                mode: CompareMode::REG_COMPARE,
                reg0: a,
                ..Default::default()
            },
        );
        s.pkt("CP_COND_REG_EXEC", &[eq, reg1, 4]);
        s.mem_write(DATA, 1);
        // Render mode: in RM6_DIRECT_RENDER only SYSMEM blocks run.
        set_marker(&mut s, A6xxMarker::RM6_DIRECT_RENDER);
        for (gmem, sysmem, out) in [(true, false, DATA + 4), (false, true, DATA + 8)] {
            let dw0 = cond_reg_exec_dw0(
                s.chip,
                CondRegExec {
                    mode: CompareMode::RENDER_MODE,
                    gmem,
                    sysmem,
                    ..Default::default()
                },
            );
            s.pkt(
                "CP_COND_REG_EXEC",
                &[dw0, CpCondRegExecDw1PredTest { dwords: 4 }.to_raw()],
            );
            s.mem_write(out, 1);
        }
        rig.run(&s).unwrap();
        assert_eq!(
            rig.read_u32(DATA),
            1,
            "{gpu}: equal registers run the block"
        );
        assert_eq!(
            rig.read_u32(DATA + 4),
            0,
            "{gpu}: GMEM block skipped in sysmem"
        );
        assert_eq!(rig.read_u32(DATA + 8), 1, "{gpu}: SYSMEM block runs");
    }
}

#[test]
fn a_skip_past_the_end_of_the_ib_is_an_error() {
    for gpu in GPUS {
        let mut rig = Rig::new(gpu);
        let mut s = rig.stream();
        let [lo, hi] = lo_hi(DATA);
        s.pkt("CP_COND_EXEC", &[lo, hi, lo, hi, 0, 10]);
        rig.run_expecting(&s, "skips 10 dwords but its IB has 0 left");
    }
}

#[test]
fn wait_reg_mem_passes_on_a_value_written_before_it() {
    for gpu in GPUS {
        let mut rig = Rig::new(gpu);
        let mut s = rig.stream();
        s.mem_write(DATA, 5);
        let [lo, hi] = lo_hi(DATA);
        let dw0 = CpWaitRegMemDw0 {
            function: CpCondFunction::WRITE_GE,
            poll: PollMemoryType::POLL_MEMORY,
            ..Default::default()
        };
        s.pkt("CP_WAIT_REG_MEM", &[dw0.to_raw(), lo, hi, 5, u32::MAX, 16]);
        s.mem_write(DATA + 4, 1);
        rig.run(&s).unwrap();
        assert_eq!(rig.read_u32(DATA + 4), 1, "{gpu}");
    }
}

#[test]
fn wait_reg_mem_sees_a_cpu_write_while_waiting() {
    let mut rig = Rig::with_options(
        "a660",
        parsnip_sim::SimOptions {
            wait_budget: Duration::from_secs(10),
            ..common::test_options()
        },
    );
    let mut s = rig.stream();
    let [lo, hi] = lo_hi(DATA);
    let dw0 = CpWaitRegMemDw0 {
        function: CpCondFunction::WRITE_EQ,
        poll: PollMemoryType::POLL_MEMORY,
        ..Default::default()
    };
    s.pkt(
        "CP_WAIT_REG_MEM",
        &[dw0.to_raw(), lo, hi, 0xc0de, u32::MAX, 16],
    );
    s.mem_write(DATA + 4, 1);
    let memory = rig.gpu.memory().clone();
    let writer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(20));
        memory.write_u32(DATA, 0xc0de).unwrap();
    });
    rig.run(&s).unwrap();
    writer.join().unwrap();
    assert_eq!(rig.read_u32(DATA + 4), 1);
}

#[test]
fn a_wait_that_never_passes_is_a_hang_naming_the_packet() {
    for gpu in GPUS {
        let mut rig = Rig::new(gpu);
        let mut s = rig.stream();
        s.pkt("CP_NOP", &[]);
        let [lo, hi] = lo_hi(DATA + 0x40);
        let dw0 = CpWaitRegMemDw0 {
            function: CpCondFunction::WRITE_EQ,
            poll: PollMemoryType::POLL_MEMORY,
            ..Default::default()
        };
        s.pkt("CP_WAIT_REG_MEM", &[dw0.to_raw(), lo, hi, 1, u32::MAX, 16]);
        let ib = rig.place(&s);
        let err = rig.gpu.submit(&mut rig.ctx, &[ib]).unwrap_err();
        let ErrorKind::Hang(HangCause::Wait {
            condition,
            last_value,
            waited,
        }) = &err.kind
        else {
            panic!("{gpu}: not a wait hang: {err}");
        };
        assert_eq!(
            condition,
            &format!("(mem[{:#x}] & 0xffffffff) == 0x1", DATA + 0x40)
        );
        assert_eq!(*last_value, 0);
        assert!(*waited >= Duration::from_millis(50));
        let site = err.site.packet().unwrap();
        assert_eq!(
            (site.packet.as_str(), site.ib, site.dword),
            ("CP_WAIT_REG_MEM", ib.iova, 1)
        );
        println!("{gpu}: {err}");
        assert!(rig.ctx.is_lost());
        let again = rig.gpu.submit(&mut rig.ctx, &[ib]).unwrap_err();
        assert_eq!(again.kind, ErrorKind::ContextLost);
    }
}

#[test]
fn wait_mem_gte_compares_signed_on_a6xx() {
    let mut rig = Rig::new("a660");
    rig.write_u32(DATA, 3);
    let mut s = rig.stream();
    let [lo, hi] = lo_hi(DATA);
    s.pkt("CP_WAIT_MEM_GTE", &[0, lo, hi, 3]);
    s.mem_write(DATA + 4, 1);
    rig.run(&s).unwrap();
    assert_eq!(rig.read_u32(DATA + 4), 1);
    // -1 is not >= 0 signed.
    rig.write_u32(DATA, u32::MAX);
    let mut s = rig.stream();
    s.pkt("CP_WAIT_MEM_GTE", &[0, lo, hi, 0]);
    assert!(rig.run(&s).unwrap_err().is_hang());
}

#[test]
fn a6xx_ts_events_write_their_value_or_the_timestamp() {
    let mut rig = Rig::new("a660");
    let mut s = rig.stream();
    let [lo, hi] = lo_hi(DATA);
    let flush = CpEventWriteDw0 {
        event: VgtEventType::CACHE_FLUSH_TS,
        ..Default::default()
    };
    s.pkt("CP_EVENT_WRITE", &[flush.to_raw(), lo, hi, 0x5e9]);
    let [lo, hi] = lo_hi(DATA + 8);
    let stamp = CpEventWriteDw0 {
        event: VgtEventType::RB_DONE_TS,
        timestamp: true,
        ..Default::default()
    };
    s.pkt("CP_EVENT_WRITE", &[stamp.to_raw(), lo, hi, 0]);
    let invalidate = CpEventWriteDw0 {
        event: VgtEventType::CACHE_INVALIDATE,
        ..Default::default()
    };
    s.pkt("CP_EVENT_WRITE", &[invalidate.to_raw()]);
    let before = rig.gpu.timestamp();
    rig.run(&s).unwrap();
    assert_eq!(rig.read_u32(DATA), 0x5e9);
    let ts = rig.read_u64(DATA + 8);
    assert!(ts > before && ts < rig.gpu.timestamp(), "{ts:#x}");
}

#[test]
fn a7xx_event_write7_writes_what_write_src_says() {
    let mut rig = Rig::new("a740");
    let mut s = rig.stream();
    let write = |src, event| CpEventWrite7Dw0 {
        event,
        write_src: src,
        write_enabled: true,
        ..Default::default()
    };
    let [lo, hi] = lo_hi(DATA);
    s.pkt(
        "CP_EVENT_WRITE7",
        &[
            write(EventWriteSrc::EV_WRITE_USER_32B, VgtEventType::CACHE_CLEAN).to_raw(),
            lo,
            hi,
            0x1234,
        ],
    );
    let [lo, hi] = lo_hi(DATA + 8);
    s.pkt(
        "CP_EVENT_WRITE7",
        &[
            write(EventWriteSrc::EV_WRITE_USER_64B, VgtEventType::RB_DONE_TS).to_raw(),
            lo,
            hi,
            0x89ab_cdef,
            0x0123_4567,
        ],
    );
    let [lo, hi] = lo_hi(DATA + 16);
    s.pkt(
        "CP_EVENT_WRITE7",
        &[
            write(EventWriteSrc::EV_WRITE_ALWAYSON, VgtEventType::RB_DONE_TS).to_raw(),
            lo,
            hi,
        ],
    );
    let [lo, hi] = lo_hi(DATA + 24);
    s.pkt(
        "CP_EVENT_WRITE7",
        &[
            write(EventWriteSrc::EV_WRITE_ALWAYSON, VgtEventType::RB_DONE_TS).to_raw(),
            lo,
            hi,
        ],
    );
    rig.run(&s).unwrap();
    assert_eq!(rig.read_u32(DATA), 0x1234);
    assert_eq!(rig.read_u64(DATA + 8), 0x0123_4567_89ab_cdef);
    let (t0, t1) = (rig.read_u64(DATA + 16), rig.read_u64(DATA + 24));
    assert!(0 < t0 && t0 < t1, "{t0:#x} {t1:#x}");
}

#[test]
fn unknown_opcodes_and_draws_are_errors_naming_them() {
    for gpu in GPUS {
        let mut rig = Rig::new(gpu);
        // 0x01 is no opcode on either generation (adreno_pm4.xml).
        let mut s = rig.stream();
        s.dwords.push(pkt7(0x01, 0));
        let err = rig.run(&s).unwrap_err();
        assert_eq!(
            err.kind,
            ErrorKind::BadStream(StreamProblem::UnknownOpcode { opcode: 1 })
        );
        assert!(
            err.to_string().contains("unknown type 7 opcode 0x01"),
            "{err}"
        );

        let mut rig = Rig::new(gpu);
        let mut s = rig.stream();
        // The a3xx-era draw packet, which a6xx firmware still decodes.
        s.pkt("CP_DRAW_INDX", &[0, 0, 3]);
        rig.run_expecting(&s, "CP_DRAW_INDX is not modelled");
    }
}

#[test]
fn bad_headers_and_truncated_packets_are_errors() {
    for gpu in GPUS {
        let mut rig = Rig::new(gpu);
        let mut s = rig.stream();
        // CP_NOP with its count parity bit flipped.
        s.dwords.push(pkt7(0x10, 0) ^ 1 << 15);
        let err = rig.run(&s).unwrap_err();
        assert!(
            matches!(err.kind, ErrorKind::BadStream(StreamProblem::BadHeader(_))),
            "{err}"
        );
        assert!(
            err.to_string().contains("wrong parity bit for the count"),
            "{err}"
        );

        let mut rig = Rig::new(gpu);
        let mut s = rig.stream();
        s.mem_write(DATA, 1);
        s.dwords.truncate(3);
        let err = rig.run(&s).unwrap_err();
        assert_eq!(
            err.kind,
            ErrorKind::BadStream(StreamProblem::PastEnd { needed: 3, left: 2 })
        );
    }
}

#[test]
fn a_packet_writing_unmapped_memory_faults_naming_it() {
    for gpu in GPUS {
        let mut rig = Rig::new(gpu);
        let mut s = rig.stream();
        s.mem_write(DATA, 1);
        s.mem_write(UNMAPPED + 0x10, 2);
        let ib = rig.place(&s);
        let err = rig.gpu.submit(&mut rig.ctx, &[ib]).unwrap_err();
        let ErrorKind::Fault { fault, shader } = &err.kind else {
            panic!("{gpu}: not a fault: {err}");
        };
        assert_eq!(
            (fault.iova, fault.write, shader),
            (UNMAPPED + 0x10, true, &None)
        );
        let site = err.site.packet().unwrap();
        assert_eq!(
            (site.level, site.ib, site.dword, site.packet.as_str()),
            (IbLevel::Ib1, ib.iova, 4, "CP_MEM_WRITE")
        );
        assert!(err.to_string().starts_with(&format!(
            "*** gpu fault: iova={:#018x} dir=WRITE",
            UNMAPPED + 0x10
        )));
        println!("{gpu}: {err}");
    }
}

#[test]
fn an_ib_in_unmapped_memory_faults_at_its_fetch() {
    for gpu in GPUS {
        let mut rig = Rig::new(gpu);
        let mut s = rig.stream();
        s.call(parsnip_sim::IbRange {
            iova: UNMAPPED,
            dwords: 8,
        });
        let err = rig.run(&s).unwrap_err();
        assert!(err.is_fault(), "{err}");
        assert_eq!(err.site.packet().unwrap().level, IbLevel::Ib2);
        assert!(!matches!(&err.kind, ErrorKind::Fault { fault, .. } if fault.write));
    }
}

#[test]
fn pipeline_and_context_packets_run_without_touching_memory() {
    for gpu in GPUS {
        let mut rig = Rig::new(gpu);
        let mut s = rig.stream();
        s.pkt("CP_NOP", &[0xdead, 0xbeef]);
        s.pkt("CP_WAIT_FOR_IDLE", &[]);
        s.pkt("CP_WAIT_FOR_ME", &[]);
        s.pkt("CP_SKIP_IB2_ENABLE_GLOBAL", &[1]);
        s.pkt("CP_SKIP_IB2_ENABLE_LOCAL", &[1]);
        // An amble IB in unmapped memory: the model never switches context,
        // so it is never fetched.
        let [lo, hi] = lo_hi(UNMAPPED);
        let amble = CpSetAmbleDw2 {
            dwords: 16,
            r#type: AmbleType::BIN_PREAMBLE_AMBLE_TYPE,
        };
        s.pkt("CP_SET_AMBLE", &[lo, hi, amble.to_raw()]);
        if s.chip == Chip::A7xx {
            let br = CpThreadControlDw0 {
                thread: CpThread::CP_SET_THREAD_BR,
                concurrent_bin_disable: true,
                ..Default::default()
            };
            s.pkt("CP_THREAD_CONTROL", &[br.to_raw()]);
        }
        s.mem_write(DATA, 1);
        let stats = rig.run(&s).unwrap();
        assert_eq!(stats.packets, if gpu == "a740" { 8 } else { 7 });
        assert_eq!(rig.read_u32(DATA), 1, "{gpu}");
    }
    // A stream that hands work to the BV thread alone needs concurrent
    // binning.
    let mut rig = Rig::new("a740");
    let mut s = rig.stream();
    let bv = CpThreadControlDw0 {
        thread: CpThread::CP_SET_THREAD_BV,
        ..Default::default()
    };
    s.pkt("CP_THREAD_CONTROL", &[bv.to_raw()]);
    rig.run_expecting(&s, "concurrent binning is not modelled");
}

#[test]
fn cond_write5_writes_only_when_the_comparison_holds() {
    for gpu in GPUS {
        let mut rig = Rig::new(gpu);
        rig.write_u32(DATA, 10);
        let mut s = rig.stream();
        let [plo, phi] = lo_hi(DATA);
        for (reference, out) in [(10u32, DATA + 4), (11, DATA + 8)] {
            let dw0 = CpCondWrite5Dw0 {
                function: CpCondFunction::WRITE_EQ,
                poll: PollMemoryType::POLL_MEMORY,
                write_memory: true,
                ..Default::default()
            };
            let [wlo, whi] = lo_hi(out);
            s.pkt(
                "CP_COND_WRITE5",
                &[dw0.to_raw(), plo, phi, reference, u32::MAX, wlo, whi, 0xabc],
            );
        }
        rig.run(&s).unwrap();
        assert_eq!(rig.read_u32(DATA + 4), 0xabc, "{gpu}: 10 == 10");
        assert_eq!(rig.read_u32(DATA + 8), 0, "{gpu}: 10 != 11");
    }
}
