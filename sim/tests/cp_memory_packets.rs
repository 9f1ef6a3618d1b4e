//! The command processor's memory and register packets, on a660 and a740:
//! hand-written streams, checked against memory contents computed by hand.

mod common;

use common::{lo_hi, Rig, DATA, GPUS};
use parsnip_registers::packets::{
    self, CpMemToMemDw0, CpMemToRegDw0, CpRegToMemDw0, CpScratchToRegDw0, CpScratchWriteDw0,
};
use parsnip_registers::regs::{self, Register};
use parsnip_registers::Chip;

#[test]
fn mem_write_stores_its_payload() {
    for gpu in GPUS {
        let mut rig = Rig::new(gpu);
        let mut s = rig.stream();
        let [lo, hi] = lo_hi(DATA + 0x10);
        s.pkt(
            "CP_MEM_WRITE",
            &[lo, hi, 0x1111_1111, 0x2222_2222, 0x3333_3333],
        );
        let stats = rig.run(&s).unwrap();
        assert_eq!(stats.packets, 1);
        assert_eq!(rig.read_u32(DATA + 0x10), 0x1111_1111, "{gpu}");
        assert_eq!(rig.read_u32(DATA + 0x14), 0x2222_2222, "{gpu}");
        assert_eq!(rig.read_u32(DATA + 0x18), 0x3333_3333, "{gpu}");
    }
}

#[test]
fn reg_to_mem_copies_written_registers() {
    for gpu in GPUS {
        let mut rig = Rig::new(gpu);
        let mut s = rig.stream();
        // Two neighbouring registers written by type 4 packets.
        s.reg(&regs::SpCsInstrlen(0x1234));
        s.reg(&regs::SpCsPvtMemHwStackOffset { offset: 0x1000 });
        let instrlen = regs::SpCsInstrlen::offset(rig.chip()).unwrap();
        let [lo, hi] = lo_hi(DATA);
        // SP_CS_INSTRLEN (0xa9bc) and SP_CS_PVT_MEM_HW_STACK_OFFSET (0xa9bd)
        // are adjacent (a6xx.xml); CNT 2 copies both.
        let dw0 = CpRegToMemDw0 {
            reg: instrlen,
            cnt: 2,
            ..Default::default()
        };
        s.pkt("CP_REG_TO_MEM", &[dw0.to_raw(), lo, hi]);
        rig.run(&s).unwrap();
        assert_eq!(rig.read_u32(DATA), 0x1234, "{gpu}");
        // OFFSET is bits 0-18 stored >> 11 (a6xx.xml
        // a6xx_sp_xs_pvt_mem_hw_stack_offset): 0x1000 is 2.
        assert_eq!(rig.read_u32(DATA + 4), 2, "{gpu}");
    }
}

#[test]
fn reg_to_mem_accumulates() {
    for gpu in GPUS {
        let mut rig = Rig::new(gpu);
        rig.write_u32(DATA, 100);
        let mut s = rig.stream();
        s.reg(&regs::SpCsInstrlen(23));
        let [lo, hi] = lo_hi(DATA);
        let dw0 = CpRegToMemDw0 {
            reg: regs::SpCsInstrlen::offset(rig.chip()).unwrap(),
            cnt: 1,
            accumulate: true,
            ..Default::default()
        };
        s.pkt("CP_REG_TO_MEM", &[dw0.to_raw(), lo, hi]);
        rig.run(&s).unwrap();
        assert_eq!(rig.read_u32(DATA), 123, "{gpu}");
    }
}

#[test]
fn mem_to_reg_loads_registers_and_can_shift_them() {
    for gpu in GPUS {
        let mut rig = Rig::new(gpu);
        rig.write_u32(DATA, 0x10);
        rig.write_u32(DATA + 4, 0x20);
        let reg = regs::SpCsInstrlen::offset(rig.chip()).unwrap();
        let mut s = rig.stream();
        let [lo, hi] = lo_hi(DATA);
        let load = CpMemToRegDw0 {
            reg,
            cnt: 2,
            shift_by_2: true,
            ..Default::default()
        };
        s.pkt("CP_MEM_TO_REG", &[load.to_raw(), lo, hi]);
        let [olo, ohi] = lo_hi(DATA + 0x100);
        let store = CpRegToMemDw0 {
            reg,
            cnt: 2,
            ..Default::default()
        };
        s.pkt("CP_REG_TO_MEM", &[store.to_raw(), olo, ohi]);
        rig.run(&s).unwrap();
        assert_eq!(rig.read_u32(DATA + 0x100), 0x40, "{gpu}");
        assert_eq!(rig.read_u32(DATA + 0x104), 0x80, "{gpu}");
        assert_eq!(rig.ctx.registers().read(reg), 0x40);
    }
}

#[test]
fn mem_to_mem_sums_sources_with_negation() {
    for gpu in GPUS {
        let mut rig = Rig::new(gpu);
        // result = 1000 + 70 - 20, Turnip's "result += end - begin".
        rig.write_u32(DATA, 1000);
        rig.write_u32(DATA + 0x10, 70);
        rig.write_u32(DATA + 0x20, 20);
        // The same in 64 bits, across the 32-bit boundary.
        rig.gpu
            .memory()
            .write_u64(DATA + 0x40, 0xffff_fff0)
            .unwrap();
        rig.gpu.memory().write_u64(DATA + 0x50, 0x20).unwrap();
        rig.gpu.memory().write_u64(DATA + 0x60, 0x8).unwrap();
        let mut s = rig.stream();
        let a = |o: u64| lo_hi(DATA + o);
        let flags = CpMemToMemDw0 {
            neg_c: true,
            ..Default::default()
        };
        let mut p = vec![flags.to_raw()];
        for o in [0, 0, 0x10, 0x20] {
            p.extend(a(o));
        }
        s.pkt("CP_MEM_TO_MEM", &p);
        let flags = CpMemToMemDw0 {
            neg_c: true,
            double: true,
            ..Default::default()
        };
        let mut p = vec![flags.to_raw()];
        for o in [0x40, 0x40, 0x50, 0x60] {
            p.extend(a(o));
        }
        s.pkt("CP_MEM_TO_MEM", &p);
        rig.run(&s).unwrap();
        assert_eq!(rig.read_u32(DATA), 1050, "{gpu}");
        assert_eq!(rig.read_u64(DATA + 0x40), 0x1_0000_0008, "{gpu}");
    }
}

#[test]
fn memcpy_copies_dwords() {
    for gpu in GPUS {
        let mut rig = Rig::new(gpu);
        for i in 0..4 {
            rig.write_u32(DATA + 4 * i, 0xa0 + i as u32);
        }
        let mut s = rig.stream();
        let [slo, shi] = lo_hi(DATA);
        let [dlo, dhi] = lo_hi(DATA + 0x200);
        s.pkt("CP_MEMCPY", &[3, slo, shi, dlo, dhi]);
        rig.run(&s).unwrap();
        assert_eq!(rig.read_u32(DATA + 0x200), 0xa0, "{gpu}");
        assert_eq!(rig.read_u32(DATA + 0x208), 0xa2, "{gpu}");
        assert_eq!(rig.read_u32(DATA + 0x20c), 0, "{gpu}: only 3 dwords");
    }
}

#[test]
fn reg_rmw_masks_rotates_and_adds() {
    for gpu in GPUS {
        let mut rig = Rig::new(gpu);
        let reg = regs::SpCsInstrlen::offset(rig.chip()).unwrap();
        let mut s = rig.stream();
        s.reg(&regs::SpCsInstrlen(0x0000_ff12));
        // ((0xff12 & 0x00ff) rotl 4) + 5 = 0x125.
        let dw0 = match rig.chip() {
            Chip::A6xx => packets::a6xx::CpRegRmwDw0 {
                dst_reg: reg,
                rotate: 4,
                src1_add: true,
                ..Default::default()
            }
            .to_raw(),
            Chip::A7xx => packets::a7xx::CpRegRmwDw0 {
                dst_reg: reg,
                rotate: 4,
                src1_add: true,
                ..Default::default()
            }
            .to_raw(),
        };
        s.pkt("CP_REG_RMW", &[dw0, 0x00ff, 5]);
        rig.run(&s).unwrap();
        assert_eq!(rig.ctx.registers().read(reg), 0x125, "{gpu}");
    }
}

#[test]
fn scratch_registers_round_trip_into_registers() {
    for gpu in GPUS {
        let mut rig = Rig::new(gpu);
        let reg = regs::SpCsInstrlen::offset(rig.chip()).unwrap();
        let mut s = rig.stream();
        let w = CpScratchWriteDw0 { scratch: 2 };
        s.pkt("CP_SCRATCH_WRITE", &[w.to_raw(), 0xaaaa, 0xbbbb]);
        let r = CpScratchToRegDw0 {
            reg,
            scratch: 2,
            cnt: 1,
            ..Default::default()
        };
        s.pkt("CP_SCRATCH_TO_REG", &[r.to_raw()]);
        rig.run(&s).unwrap();
        assert_eq!(rig.ctx.registers().read(reg), 0xaaaa, "{gpu}");
        assert_eq!(rig.ctx.registers().read(reg + 1), 0xbbbb, "{gpu}");
    }
}

#[test]
fn timestamps_increase() {
    for gpu in GPUS {
        let mut rig = Rig::new(gpu);
        let counter = regs::CpAlwaysOnCounter::offset(rig.chip()).unwrap();
        let mut s = rig.stream();
        for i in 0..3 {
            let [lo, hi] = lo_hi(DATA + 8 * i);
            let dw0 = CpRegToMemDw0 {
                reg: counter,
                cnt: 2,
                field_64b: true,
                ..Default::default()
            };
            s.pkt("CP_REG_TO_MEM", &[dw0.to_raw(), lo, hi]);
        }
        rig.run(&s).unwrap();
        let t: Vec<u64> = (0..3).map(|i| rig.read_u64(DATA + 8 * i)).collect();
        assert!(t[0] > 0 && t[0] < t[1] && t[1] < t[2], "{gpu}: {t:x?}");
        assert!(rig.gpu.timestamp() > t[2]);
    }
}

#[test]
fn register_bunches_and_reg_write_set_registers() {
    for gpu in GPUS {
        let mut rig = Rig::new(gpu);
        let a = regs::SpCsInstrlen::offset(rig.chip()).unwrap();
        let b = regs::SpCsObjFirstExecOffset::offset(rig.chip()).unwrap();
        let mut s = rig.stream();
        s.pkt("CP_CONTEXT_REG_BUNCH", &[a, 5, b, 6]);
        if rig.chip() == Chip::A6xx {
            // CP_REG_WRITE exists on a6xx only (adreno_pm4.xml).
            s.pkt("CP_REG_WRITE", &[0, a, 7]);
        }
        rig.run(&s).unwrap();
        let expect_a = if gpu == "a660" { 7 } else { 5 };
        assert_eq!(rig.ctx.registers().read(a), expect_a, "{gpu}");
        assert_eq!(rig.ctx.registers().read(b), 6, "{gpu}");
    }
}

#[test]
fn reg_to_scratch_then_scratch_to_reg_copies_registers() {
    for gpu in GPUS {
        let mut rig = Rig::new(gpu);
        let src = regs::SpCsInstrlen::offset(rig.chip()).unwrap();
        let dst = regs::SpCsObjFirstExecOffset::offset(rig.chip()).unwrap();
        let mut s = rig.stream();
        s.reg(&regs::SpCsInstrlen(0x77));
        let to_scratch = match rig.chip() {
            Chip::A6xx => packets::a6xx::CpRegToScratchDw0 {
                reg: src,
                scratch: 5,
                cnt: 0,
            }
            .to_raw(),
            Chip::A7xx => packets::a7xx::CpRegToScratchDw0 {
                reg: src,
                scratch: 5,
                cnt: 0,
                ..Default::default()
            }
            .to_raw(),
        };
        s.pkt("CP_REG_TO_SCRATCH", &[to_scratch]);
        let back = CpScratchToRegDw0 {
            reg: dst,
            scratch: 5,
            cnt: 0,
            ..Default::default()
        };
        s.pkt("CP_SCRATCH_TO_REG", &[back.to_raw()]);
        rig.run(&s).unwrap();
        assert_eq!(rig.ctx.registers().read(dst), 0x77, "{gpu}");
    }
}
