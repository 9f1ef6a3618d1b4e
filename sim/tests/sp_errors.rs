//! What stops a dispatch, and what the report says: a hang (the budget runs
//! out) names the PC and instruction, a fault the iova and the instruction
//! that made it, and errors say what was wrong and where.

mod shader_rig;

use parsnip_isa::{decode_permissive, IsaGen};
use parsnip_sim::report::ShaderFailure;
use shader_rig::*;

#[test]
fn an_infinite_loop_is_a_hang_at_its_pc() {
    for g in GENS {
        let mut rig = Rig::new(g);
        let p = rig.program("mov.u32u32 r1.x, 0\nloop:\nadd.u r1.x, r1.x, 1\njump #loop\nend\n");
        let mut d = rig.dispatch(p);
        d.local_size = [64, 1, 1];
        d.group_count = [3, 1, 1];
        d.instruction_budget = 10_000;
        let Err(ShaderFailure::Hang { executed, at }) = rig.run(&d) else {
            panic!("{g}: expected a hang")
        };
        assert_eq!(executed, 10_000, "{g}");
        assert!(at.pc == 1 || at.pc == 2, "{g}: {at:?}");
        assert_eq!(at.work_group(), Some([0, 0, 0]), "{g}");
        let text = if at.pc == 1 {
            "add.u r1.x, r1.x, 1"
        } else {
            "jump #-1"
        };
        assert_eq!(at.instruction, text, "{g}");
    }
}

#[test]
fn an_infinite_loop_ends_on_the_wall_clock_budget_too() {
    // With an instruction budget no test would wait for, the time budget is
    // what ends the dispatch, as the kernel's hangcheck timer would.
    let mut rig = Rig::new(IsaGen::A6xx);
    let p = rig.program("mov.u32u32 r1.x, 0\nloop:\nadd.u r1.x, r1.x, 1\njump #loop\nend\n");
    let mut d = rig.dispatch(p);
    d.instruction_budget = u64::MAX;
    d.time_budget = Some(std::time::Duration::from_millis(50));
    let Err(ShaderFailure::Hang { executed, at }) = rig.run(&d) else {
        panic!("expected a hang")
    };
    assert!(
        executed > 0 && executed.is_multiple_of(1 << 16),
        "{executed}"
    );
    assert!(at.pc == 1 || at.pc == 2, "{at:?}");
}

#[test]
fn a_store_to_unmapped_memory_faults_with_its_iova_and_pc() {
    for g in GENS {
        let mut rig = Rig::new(g);
        let p = rig.program(&format!("{PROLOGUE}mov.u32u32 r3.x, 1\n{STORE_R3X}"));
        let mut d = rig.dispatch(p);
        d.local_size = [4, 1, 1];
        d.group_count = [1, 2, 1];
        d.consts = address_consts(0xdead_0000, &[]);
        let Err(ShaderFailure::Fault { fault, at }) = rig.run(&d) else {
            panic!("{g}: expected a fault")
        };
        assert_eq!(fault.iova, 0xdead_0000, "{g}: fiber 0's address");
        assert!(fault.write, "{g}");
        assert_eq!(at.pc, 4, "{g}");
        assert_eq!(at.instruction, "stg.u32 g[r2.x], r3.x, 1", "{g}");
        assert_eq!((at.work_group(), at.wave), (Some([0, 0, 0]), 0), "{g}");
    }
}

#[test]
fn running_off_the_end_of_the_program_faults_on_the_fetch() {
    let mut rig = Rig::new(IsaGen::A6xx);
    let p = rig.program("mov.u32u32 r1.x, 0\n");
    let d = rig.dispatch(p);
    let Err(ShaderFailure::Fault { fault, at }) = rig.run(&d) else {
        panic!("expected a fault")
    };
    assert_eq!((fault.iova, fault.write), (p + 8, false));
    assert_eq!(at.pc, 1);
    assert_eq!(at.instruction, "(unmapped)");
}

#[test]
fn an_undecodable_word_is_an_illegal_instruction() {
    // cat2 opcode 8 is no instruction (Mesa's instr-a3xx.h: "8 - invalid").
    let word: u64 = 2 << 61 | 8 << 53;
    assert!(decode_permissive(word, IsaGen::A6xx).is_err());
    for g in GENS {
        let mut rig = Rig::new(g);
        let p = rig.words(&[0, 0, word as u32, (word >> 32) as u32]);
        let d = rig.dispatch(p);
        let (message, at) = rig.run_error(&d);
        let at = at.expect("the error names an instruction");
        assert!(
            message.starts_with("illegal instruction 0x4100000000000000 at instruction 1"),
            "{g}: {message}"
        );
        assert_eq!(at.pc, 1, "{g}");
        assert_eq!(at.instruction, "raw 0x4100000000000000", "{g}");
    }
}

#[test]
fn shared_memory_out_of_range_is_an_error() {
    for g in GENS {
        let mut rig = Rig::new(g);
        let p = rig.program("shl.b r1.x, r0.x, 2\nstl.u32 l[r1.x+4], r0.x, 1\nend\n");
        let mut d = rig.dispatch(p);
        d.local_size = [64, 1, 1];
        d.shared_size = 128;
        let (message, at) = rig.run_error(&d);
        let at = at.expect("the error names an instruction");
        // Fiber 31 stores at 128..132.
        assert_eq!(
            message,
            "shared memory access to bytes 128..132 outside the work group's 128 bytes \
             (SP_CS_UNKNOWN_A9B1.SHARED_SIZE)",
            "{g}"
        );
        assert_eq!(at.pc, 1, "{g}");
    }
}

#[test]
fn reading_a_const_nothing_loaded_is_an_error() {
    let mut rig = Rig::new(IsaGen::A7xx);
    let p = rig.program("mov.u32u32 r1.x, c2.y\nend\n");
    let mut d = rig.dispatch(p);
    d.consts = vec![0; 8];
    let (message, _) = rig.run_error(&d);
    assert!(
        message.starts_with("c2.y is read but was neither loaded"),
        "{message}"
    );
}

#[test]
fn a_register_outside_the_footprint_is_an_error() {
    let mut rig = Rig::new(IsaGen::A6xx);
    let p = rig.program("mov.u32u32 r2.x, 1\nend\n");
    let mut d = rig.dispatch(p);
    d.full_regs = 2;
    let (message, _) = rig.run_error(&d);
    assert!(
        message.starts_with("r2.x is outside the register footprint"),
        "{message}"
    );
}

#[test]
fn a_kill_in_a_compute_shader_is_an_error() {
    let mut rig = Rig::new(IsaGen::A6xx);
    let p = rig.program("kill p0.x\nend\n");
    let d = rig.dispatch(p);
    let (message, _) = rig.run_error(&d);
    assert!(
        message.starts_with("kill outside a fragment shader"),
        "{message}"
    );
}
