//! Dispatches the command processor launches on the model's own shader
//! processor: a shader that never ends is a hang report with its PC, within
//! the instruction budget.

mod common;

use common::compute_state::{exec_cs, program_cs, Omit, PROGRAM};
use common::{test_options, Rig, GPUS};
use parsnip_isa::{assemble, IsaGen};
use parsnip_sim::report::{ErrorKind, HangCause};

#[test]
fn an_endless_shader_is_a_hang_report_with_its_pc() {
    for gpu in GPUS {
        let mut rig = Rig::with_model(gpu, test_options());
        let isa = if gpu == "a660" {
            IsaGen::A6xx
        } else {
            IsaGen::A7xx
        };
        let program = assemble("(jp)nop\njump #-1\nend\n", isa).unwrap();
        let bytes: Vec<u8> = program.iter().flat_map(|w| w.to_le_bytes()).collect();
        rig.gpu.memory().write(PROGRAM, &bytes).unwrap();
        let mut s = rig.stream();
        program_cs(&mut s, Omit::default());
        exec_cs(&mut s, [1, 1, 1]);
        let err = rig.run(&s).unwrap_err();
        let ErrorKind::Hang(HangCause::Shader { executed, at }) = &err.kind else {
            panic!("{gpu}: not a shader hang: {err}");
        };
        assert!(at.pc <= 1, "{gpu}: the loop is instructions 0 and 1: {err}");
        assert!(
            at.instruction.contains("jump") || at.instruction.contains("nop"),
            "{err}"
        );
        assert!(*executed >= test_options().shader_budget, "{err}");
        assert_eq!(err.site.packet().unwrap().packet, "CP_EXEC_CS");
        assert!(err
            .to_string()
            .starts_with("hangcheck detected gpu lockup: shader"));
        println!("{gpu}: {err}");
    }
}
