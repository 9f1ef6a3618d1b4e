//! One test per hardware rule the compiler's rewrites depend on (ARCHITECTURE.md): each
//! fails if the compiler assumed the idealised behaviour instead of the hardware's, as
//! parsnip-isa states it (the simulator executes the same definitions).

mod common;

use parsnip_compiler::descriptor_layout::{DescriptorKind, DescriptorLayout};
use parsnip_compiler::ir::{eval, AluOp, BitSize, ConvKind, Op, Shader, Src, Terminator};
use parsnip_compiler::{compile, passes, CompileOptions};
use parsnip_isa::eval::{eval_alu, AluOp as IsaOp};
use parsnip_isa::{Opcode, Round, Sat, Type};

fn compile_text(shader: &str, bindings: &[(u32, DescriptorKind)]) -> String {
    let words = common::spirv(shader);
    let list: Vec<_> = bindings.iter().map(|(b, k)| (0, *b, *k, 1)).collect();
    let opts = CompileOptions {
        gpu: "a660".into(),
        layout: DescriptorLayout::packed(&list),
        ..CompileOptions::default()
    };
    compile(&words, &opts).unwrap().disassembly
}

const SSBO: DescriptorKind = DescriptorKind::StorageBuffer;

/// ldl/stl/ldp/stp take a 13-bit signed immediate offset: 4092 fits, 4096 and 6000 do not
/// and must come from the address register.
#[test]
fn shared_offsets_fold_only_within_13_bits() {
    let text = compile_text("rule_shared_offsets", &[(0, SSBO)]);
    let offsets: Vec<i64> = text
        .lines()
        .filter(|l| l.contains("ldl.") || l.contains("stl."))
        .filter_map(|l| {
            // "l[r0.x+4092]" / "l[r0.x]"
            let inner = l.split("l[").nth(1)?.split(']').next()?;
            Some(
                inner
                    .split_once('+')
                    .map_or(0, |(_, o)| o.parse().unwrap_or(0)),
            )
        })
        .collect();
    assert!(!offsets.is_empty(), "{text}");
    assert!(
        offsets.iter().all(|o| (-4096..=4095).contains(o)),
        "{offsets:?}\n{text}"
    );
    assert!(
        offsets.contains(&4092),
        "the in-range constant should be folded: {offsets:?}\n{text}"
    );
    assert!(
        !offsets.contains(&4096) && !offsets.contains(&6000),
        "{offsets:?}"
    );
}

/// (sat) does not work on sel (parsnip-isa's opcode table); no instruction the compiler
/// emits may carry (sat) unless the opcode's saturate works.
#[test]
fn sat_is_only_emitted_where_it_works() {
    let text = compile_text("rule_sat_select", &[(0, SSBO), (1, SSBO)]);
    assert!(
        text.contains("(sat)"),
        "the clamp to [0, 1] should use (sat): {text}"
    );
    for line in text.lines().filter(|l| l.contains("(sat)")) {
        // Strip the "(sat)(ss)..." flags in front of the opcode.
        let mut name = line.split_whitespace().next().unwrap_or("");
        while let Some(rest) = name.strip_prefix('(').and_then(|r| r.split_once(')')) {
            name = rest.1;
        }
        let opcode = Opcode::from_name(name).unwrap_or_else(|| panic!("unknown opcode in {line}"));
        assert_eq!(opcode.info().sat, Sat::Works, "{line}");
        assert!(!name.starts_with("sel"), "{line}");
    }
}

/// What the instruction chosen for an IR conversion computes must be the IR's meaning:
/// float to u16 clamps (cov.f32u16), integer to u16 truncates (cov.u32u16).
#[test]
fn narrowing_conversions_clamp_or_truncate_as_the_hardware_does() {
    let text = compile_text("rule_u16_convert", &[(0, SSBO), (1, SSBO), (2, SSBO)]);
    assert!(text.contains("cov.f32u16"), "{text}");
    assert!(text.contains("cov.u32u16"), "{text}");
    let f2u = IsaOp::conversion(Type::F32, Type::U16, Round::Zero);
    let u2u = IsaOp::conversion(Type::U32, Type::U16, Round::Zero);
    for x in [70000.0f32, -3.0, 65535.4, 1.0e30, 12.9] {
        let ir = eval::eval_convert(
            ConvKind::F2I { signed: false },
            BitSize::B32,
            BitSize::B16,
            x.to_bits() as u64,
        );
        assert_eq!(
            ir,
            Some(eval_alu(&f2u, &[x.to_bits()]).unwrap() as u64),
            "f2u16({x})"
        );
    }
    assert_eq!(
        eval_alu(&f2u, &[70000.0f32.to_bits()]),
        Ok(0xffff),
        "float to u16 clamps"
    );
    for v in [0x1_2345u32, 0xffff_ffff, 65535, 65536] {
        let ir = eval::eval_convert(
            ConvKind::I2I { signed: false },
            BitSize::B32,
            BitSize::B16,
            v as u64,
        );
        assert_eq!(
            ir,
            Some(eval_alu(&u2u, &[v]).unwrap() as u64),
            "u2u16({v:#x})"
        );
    }
}

/// The IR takes shift amounts modulo the width because the hardware does: the rewrite of
/// a constant amount past the width (x << 40 to x << 8) must give what shl.b computes for
/// the original amount, and the selected code must not mask the amount.
#[test]
fn shift_amounts_wrap_as_the_hardware_takes_them() {
    for (op, opcode) in [
        (AluOp::Shl, Opcode::ShlB),
        (AluOp::UShr, Opcode::ShrB),
        (AluOp::SShr, Opcode::AshrB),
    ] {
        let mut s = Shader::new([1, 1, 1]);
        let x = s.new_value(BitSize::B32);
        let r = s.new_value(BitSize::B32);
        let b = s.block_mut(parsnip_compiler::ir::BlockId::ENTRY);
        b.instrs.push(parsnip_compiler::ir::Instr {
            dst: Some(x),
            op: Op::Undef,
        });
        b.instrs.push(parsnip_compiler::ir::Instr {
            dst: Some(r),
            op: Op::alu(op, BitSize::B32, &[x.into(), Src::Imm(40)]),
        });
        b.term = Terminator::Return;
        passes::opt_algebraic::run(&mut s);
        let Op::Alu(a) = &s.blocks[0].instrs[1].op else {
            panic!()
        };
        let amount = a.srcs[1].as_imm().unwrap() as u32;
        for v in [0x8000_0001u32, 0xdead_beef, 1] {
            let hw = eval_alu(&IsaOp::new(opcode, false), &[v, 40]).unwrap();
            let rewritten = eval_alu(&IsaOp::new(opcode, false), &[v, amount]).unwrap();
            assert_eq!(
                hw, rewritten,
                "{opcode:?} {v:#x} by 40 rewritten to {amount}"
            );
        }
    }
    let text = compile_text("rule_shifts", &[(0, SSBO), (1, SSBO)]);
    for shift in ["shl.b", "shr.b", "ashr.b"] {
        assert!(text.contains(shift), "{text}");
    }
    assert!(
        !text.contains(", 31\n"),
        "no masking of the amount is needed: {text}"
    );
}
