//! One test per hardware rule the compiler's rewrites depend on (ARCHITECTURE.md), run on
//! the simulated a660 and a740. Each rule has a shader (tests/shaders/rule_*.comp, a case of
//! the corpus) whose results must be what the CPU computes with the hardware's rule; its
//! inputs are chosen so that the idealised rule gives other values (each test counts
//! them), so a compiler that assumed the idealised rule, in its folding or its selection,
//! fails here. Each test also checks that the compiled code has the shape the rule is
//! about, and the IR's meaning of the operation against parsnip-isa's, which the
//! simulator executes.

mod common;
mod corpus;

use corpus::on_simulator::{self, Run};
use corpus::{rules, words, Case};
use parsnip_compiler::ir::{eval, AluOp, BitSize, ConvKind, Op, Shader, Src, Terminator};
use parsnip_compiler::{compile_to_ir, passes, CompileOptions};
use parsnip_isa::eval::{eval_alu, AluOp as IsaOp};
use parsnip_isa::{decode, encode, Instr, IsaGen, Local, Mem, Opcode, Round, Sat, Type};

const GPUS: [&str; 2] = ["a660", "a740"];

fn isa_gen(gpu: &str) -> IsaGen {
    if gpu.starts_with("a7") {
        IsaGen::A7xx
    } else {
        IsaGen::A6xx
    }
}

/// Runs `case` on both simulated GPUs; each run's results must match the CPU.
fn run_everywhere(case: &Case) -> Vec<(&'static str, Run)> {
    let spirv = common::spirv(case.shader);
    GPUS.iter()
        .map(|&gpu| {
            let run = on_simulator::run(gpu, case, &spirv)
                .unwrap_or_else(|e| panic!("{} on {gpu}: {e}", case.shader));
            if let Err(e) = case.check(&run.results) {
                panic!("{} on {gpu}: {e}\n{}", case.shader, run.shader.disassembly);
            }
            (gpu, run)
        })
        .collect()
}

/// The compiled program, decoded.
fn instructions(gpu: &str, run: &Run) -> Vec<Instr> {
    run.shader
        .code
        .chunks_exact(2)
        .map(|w| {
            let word = u64::from(w[0]) | u64::from(w[1]) << 32;
            decode(word, isa_gen(gpu)).unwrap_or_else(|e| panic!("{gpu}: {e}"))
        })
        .collect()
}

/// The values of result buffer `index` of the case, as words.
fn expected_words(case: &Case, index: usize) -> Vec<u32> {
    let (_, corpus::Expect::U32(w)) = &case.expect[index] else {
        panic!("{}: expected words", case.shader)
    };
    w.clone()
}

/// How many of `want` the idealised rule's `other` gets wrong.
fn differing(want: &[u32], other: &[u32]) -> usize {
    want.iter().zip(other).filter(|(a, b)| a != b).count()
}

/// ldl/stl take a 13-bit signed immediate byte offset: +4092 and -4096 fold into it, while
/// +4096, +6000 and -4100 must come from the address register. A compiler that assumed a
/// wider (or unsigned) immediate would fold those three, which the hardware cannot encode:
/// the compile, and so this test, would fail; one that put them in the address register
/// but addressed the wrong bytes fails the comparison with the CPU.
#[test]
fn shared_offsets_fold_only_within_13_bits() {
    let local = |op, offset| {
        Instr::new(parsnip_isa::Op::Mem(Mem::Local(Local {
            op,
            ty: Type::U32,
            reg: 0,
            addr: 4,
            offset,
            size: 1,
        })))
    };
    for gen in [IsaGen::A6xx, IsaGen::A7xx] {
        for op in [Opcode::Ldl, Opcode::Stl] {
            for offset in [4095, -4096] {
                assert!(encode(&local(op, offset), gen).is_ok(), "{op:?} {offset}");
            }
            for offset in [4096, 6000, -4097, -4100] {
                assert!(encode(&local(op, offset), gen).is_err(), "{op:?} {offset}");
            }
        }
    }

    let case = rules::rule_shared_offsets();
    for (gpu, run) in run_everywhere(&case) {
        let offsets: Vec<(Opcode, i32)> = instructions(gpu, &run)
            .iter()
            .filter_map(|i| match &i.op {
                parsnip_isa::Op::Mem(Mem::Local(l))
                    if matches!(l.op, Opcode::Ldl | Opcode::Stl) =>
                {
                    Some((l.op, l.offset))
                }
                _ => None,
            })
            .collect();
        let text = &run.shader.disassembly;
        for folded in [
            (Opcode::Stl, 4092),
            (Opcode::Ldl, 4092),
            (Opcode::Ldl, -4096),
        ] {
            assert!(
                offsets.contains(&folded),
                "{gpu}: {folded:?} should be an immediate: {offsets:?}\n{text}"
            );
        }
        for (op, offset) in &offsets {
            assert!(
                (-4096..=4095).contains(offset) && ![4096, 6000, -4100].contains(offset),
                "{gpu}: {op:?} with offset {offset}\n{text}"
            );
        }
        println!("{gpu}: shared memory offsets {offsets:?}, results match the CPU");
    }
}

/// (sat) does not work on sel (Mesa's is_sat_compatible; parsnip-isa's opcode table), so a
/// clamp of a select must stay its own instruction. The model executes no (sat) sel: a
/// compiler that folded the clamp into the select would stop the dispatch with an error,
/// and one that dropped the clamp would give the unclamped values counted here.
#[test]
fn sat_is_only_emitted_where_it_works() {
    for opcode in [Opcode::SelB32, Opcode::SelB16, Opcode::SelF32] {
        assert_ne!(opcode.info().sat, Sat::Works, "{opcode:?}");
        let mut sel = IsaOp::new(opcode, opcode == Opcode::SelB16);
        sel.sat = true;
        assert!(
            eval_alu(&sel, &[0x4000_0000, 1, 0]).is_err(),
            "the model must not execute (sat) on {opcode:?}"
        );
    }

    let case = rules::rule_sat_select();
    // The shape the rule is about reaches instruction selection: a saturate of a select.
    let options = CompileOptions {
        layout: case.layout(),
        ..CompileOptions::default()
    };
    let ir = compile_to_ir(&common::spirv(case.shader), &options).unwrap();
    let selects: Vec<_> = ir
        .blocks
        .iter()
        .flat_map(|b| &b.instrs)
        .filter(|i| matches!(&i.op, Op::Alu(a) if a.op == AluOp::Select))
        .filter_map(|i| i.dst)
        .collect();
    let saturated = ir
        .blocks
        .iter()
        .flat_map(|b| &b.instrs)
        .filter(|i| {
            matches!(&i.op, Op::Alu(a) if a.op == AluOp::FSat
                && a.srcs[0].as_val().is_some_and(|v| selects.contains(&v)))
        })
        .count();
    assert!(saturated > 0, "no fsat of a select:\n{ir}");
    let a: Vec<f32> = words(&case.buffers[0].data)
        .into_iter()
        .map(f32::from_bits)
        .collect();
    // The saturated select is `x < 0.5 ? x : -y`; where it falls outside [0, 1], a lost
    // saturate changes the result.
    let outside = (0..a.len())
        .filter(|&i| {
            let (x, y) = (a[i], a[a.len() - 1 - i]);
            !(0.0..=1.0).contains(&(if x < 0.5 { x } else { -y }))
        })
        .count();
    assert!(
        outside > a.len() / 4,
        "{outside} selects fall outside [0, 1]"
    );
    for (gpu, run) in run_everywhere(&case) {
        let code = instructions(gpu, &run);
        let sat: Vec<&Instr> = code
            .iter()
            .filter(|i| matches!(&i.op, parsnip_isa::Op::Alu(a) if a.sat))
            .collect();
        assert!(
            !sat.is_empty(),
            "{gpu}: the clamps to [0, 1] should use (sat):\n{}",
            run.shader.disassembly
        );
        for i in &sat {
            assert_eq!(i.opcode().info().sat, Sat::Works, "{gpu}: {i}");
        }
        assert!(
            code.iter().any(|i| i.opcode() == Opcode::SelB32),
            "{gpu}: the selects should be sel.b32:\n{}",
            run.shader.disassembly
        );
        println!(
            "{gpu}: {saturated} saturated select, {} (sat) instructions, none a sel; \
             {outside} of {} selects clamped, results match the CPU",
            sat.len(),
            a.len()
        );
    }
}

/// Float to 16-bit integer conversions clamp (cov.f32u16, cov.f32s16) and integer
/// narrowing truncates (cov.u32u16), at run time and in the compiler's constant folder
/// alike. A compiler that assumed truncating float conversions (converting through 32
/// bits, or folding so) gives the values counted here.
#[test]
fn narrowing_conversions_clamp_or_truncate_as_the_hardware_does() {
    // The IR's meaning of each conversion is parsnip-isa's, which the model executes.
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

    let case = rules::rule_u16_convert();
    let want = expected_words(&case, 0);
    let f: Vec<f32> = words(&case.buffers[0].data)
        .into_iter()
        .map(f32::from_bits)
        .collect();
    // What truncating conversions would store: the low 16 bits of the 32-bit integer.
    let truncated: Vec<u32> = f
        .iter()
        .enumerate()
        .flat_map(|(i, &x)| {
            let n = x as i32;
            let folded = (70000u32 & 0xffff)
                .wrapping_add((-3i32 as u32 & 0xffff) << 16)
                .wrapping_add(0x2345 * 3)
                .wrapping_add(-40000i32 as i16 as i32 as u32);
            [
                n as u16 as u32,
                want[i * 4 + 1],
                n as i16 as i32 as u32,
                folded,
            ]
        })
        .collect();
    let wrong = differing(&want, &truncated);
    assert!(
        wrong > f.len(),
        "{wrong} values tell clamping from truncation"
    );
    for (gpu, run) in run_everywhere(&case) {
        let text = &run.shader.disassembly;
        for cov in ["cov.f32u16", "cov.f32s16", "cov.u32u16"] {
            assert!(text.contains(cov), "{gpu}: no {cov}:\n{text}");
        }
        println!(
            "{gpu}: conversions match the CPU; truncation would differ in {wrong} of {} values",
            want.len()
        );
    }
}

/// Shifts take the amount modulo the width (32, or 16 for 16-bit shifts). The optimiser
/// rewrites a constant amount past the width (x << 40 to x << 8) and never merges two
/// shifts whose amounts add up past it ((x << 20) << 20 is 0, x << 40 is not). A compiler
/// that assumed amounts past the width shift everything out, or that merged shifts, gives
/// the values counted here.
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

    let case = rules::rule_shifts();
    let want = expected_words(&case, 0);
    let a = words(&case.buffers[0].data);
    // What the idealised rules give: amounts past the width shifting everything out (for
    // 16-bit shifts too), and merged shifts.
    let idealised: Vec<u32> = a
        .iter()
        .enumerate()
        .flat_map(|(i, &x)| {
            let n = i as u32;
            let (h, m) = (x as u16, n % 32);
            let shl = |v: u32, k: u32| v.checked_shl(k).unwrap_or(0);
            let shr = |v: u32, k: u32| v.checked_shr(k).unwrap_or(0);
            let ashr = |v: u32, k: u32| ((v as i32) >> k.min(31)) as u32;
            let h16 = |k: u32, left: bool| {
                let v = if left {
                    shl(h.into(), k)
                } else {
                    shr(h.into(), k)
                };
                v & 0xffff
            };
            [
                shl(x, n),
                shr(x, n),
                ashr(x, n),
                h16(m, true) | h16(m, false) << 16,
                // x << 40 shifting everything out; (x << 20) << 20, (x >> 20) >> 20 and
                // the arithmetic one merged into shifts by 40, which the hardware takes
                // as 8.
                0,
                x << 8,
                x >> 8,
                ashr(x, 8),
            ]
        })
        .collect();
    let wrong = differing(&want, &idealised);
    assert!(wrong > a.len(), "{wrong} values tell the rules apart");
    for (gpu, run) in run_everywhere(&case) {
        let text = &run.shader.disassembly;
        for shift in ["shl.b", "shr.b", "ashr.b"] {
            assert!(text.contains(shift), "{gpu}: no {shift}:\n{text}");
        }
        println!(
            "{gpu}: shifts match the CPU; the idealised rules would differ in {wrong} of {} values",
            want.len()
        );
    }
}
