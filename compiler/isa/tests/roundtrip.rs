//! Property tests: encoding and decoding are inverse on generated instructions
//! of every opcode; every word that decodes prints as text that assembles
//! back to it; malformed text and undefined words give errors, not panics.

use std::collections::BTreeMap;

use parsnip_isa::*;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;

/// Mostly `default`, sometimes anything `s` makes: most fields of most
/// opcodes must hold their default, so this keeps many samples encodable.
fn sparse<T: Clone + std::fmt::Debug + 'static>(
    s: impl Strategy<Value = T> + 'static,
    default: T,
) -> BoxedStrategy<T> {
    prop_oneof![3 => Just(default), 1 => s].boxed()
}

fn flag() -> BoxedStrategy<bool> {
    sparse(Just(true), false)
}

fn ty() -> impl Strategy<Value = Type> {
    prop::sample::select(TYPES.to_vec())
}

fn src_kind() -> impl Strategy<Value = SrcKind> {
    prop_oneof![
        4 => any::<u8>().prop_map(SrcKind::Reg),
        2 => (0u16..2048).prop_map(SrcKind::Const),
        1 => (-512i16..512).prop_map(SrcKind::RelReg),
        1 => (-512i16..512).prop_map(SrcKind::RelConst),
        1 => (-1024i32..4096).prop_map(SrcKind::Imm),
        1 => any::<u32>().prop_map(|v| SrcKind::Imm(v as i32)),
        1 => (0u8..12).prop_map(SrcKind::FLut),
    ]
}

fn operand(half: bool) -> impl Strategy<Value = Operand> {
    (src_kind(), flag(), flag(), flag(), flag()).prop_map(move |(kind, neg, abs, r, last)| {
        Operand {
            kind,
            half,
            neg,
            abs,
            r,
            last,
        }
    })
}

fn reg(half: bool) -> impl Strategy<Value = Reg> {
    any::<u8>().prop_map(move |num| Reg { num, half })
}

fn pred() -> impl Strategy<Value = Option<Pred>> {
    prop::option::of((0u8..4, any::<bool>()).prop_map(|(comp, inv)| Pred { comp, inv }))
}

fn flow(op: Opcode) -> BoxedStrategy<Op> {
    (
        sparse(0u8..8, 0),
        flag(),
        sparse(any::<i32>(), 0),
        sparse(-64i32..64, 0),
        pred(),
        pred(),
        sparse(0u8..32, 0),
        sparse(0u8..8, 0),
    )
        .prop_map(
            move |(repeat, eq, far, near, pred, pred2, index, cluster)| {
                Op::Flow(Flow {
                    op,
                    repeat,
                    eq,
                    target: if far != 0 { far } else { near },
                    pred,
                    pred2,
                    index,
                    cluster,
                })
            },
        )
        .boxed()
}

fn cat1(op: Opcode) -> BoxedStrategy<Op> {
    match op {
        Opcode::Mov => (
            ty(),
            ty(),
            any::<u8>(),
            flag(),
            sparse(0u8..4, 0),
            flag(),
            0usize..4,
        )
            .prop_flat_map(|(st, dt, dst, rel, repeat, ul, round)| {
                operand(st.is_half_cat1()).prop_map(move |src| {
                    Op::Mov(Mov {
                        src_type: st,
                        dst_type: dt,
                        dst: if rel {
                            MovDst::Rel(dst)
                        } else {
                            MovDst::Reg(dst)
                        },
                        src: Operand {
                            neg: false,
                            abs: false,
                            ..src
                        },
                        repeat,
                        ul,
                        round: ROUNDS[round],
                    })
                })
            })
            .boxed(),
        Opcode::Movmsk => (any::<u8>(), flag(), 0u8..4, flag())
            .prop_map(|(n, rel, repeat, ul)| {
                Op::MovMsk(MovMsk {
                    dst: if rel { MovDst::Rel(n) } else { MovDst::Reg(n) },
                    repeat,
                    ul,
                })
            })
            .boxed(),
        _ => (
            ty(),
            ty(),
            any::<[u8; 4]>(),
            any::<[u8; 4]>(),
            flag(),
            0usize..4,
        )
            .prop_map(move |(st, dt, mut dsts, mut srcs, ul, round)| {
                let (nd, ns) = MovMulti::counts(op);
                dsts[nd..].fill(0);
                srcs[ns..].fill(0);
                Op::MovMulti(MovMulti {
                    op,
                    src_type: st,
                    dst_type: dt,
                    dsts,
                    srcs,
                    ul,
                    round: ROUNDS[round],
                })
            })
            .boxed(),
    }
}

fn alu(op: Opcode) -> BoxedStrategy<Op> {
    let two = op.info().nsrc == 2;
    (any::<bool>(), any::<bool>())
        .prop_flat_map(move |(half, dst_half)| {
            (
                reg(dst_half),
                operand(half),
                if two {
                    operand(half).prop_map(Some).boxed()
                } else {
                    Just(None).boxed()
                },
                0usize..6,
                sparse(0u8..4, 0),
                sparse(0u8..4, 0),
                (flag(), flag(), flag()),
            )
        })
        .prop_map(move |(dst, src1, src2, cond, repeat, nop, (sat, ul, ei))| {
            Op::Alu(Alu {
                op,
                dst,
                src1,
                src2,
                cond: if op.info().has(flags::COND) {
                    CONDS[cond]
                } else {
                    Cond::Lt
                },
                repeat,
                nop,
                sat,
                ul,
                ei,
            })
        })
        .boxed()
}

fn alu3(op: Opcode) -> BoxedStrategy<Op> {
    (any::<bool>(), any::<bool>())
        .prop_flat_map(move |(half, dst_half)| {
            (
                reg(dst_half),
                operand(half),
                reg(half),
                operand(half),
                (sparse(0u8..4, 0), sparse(0u8..4, 0)),
                (flag(), flag(), flag(), flag()),
                (flag(), flag()),
            )
        })
        .prop_map(
            move |(dst, s1, s2, s3, (repeat, nop), (sat, ul, mixed, high), (n2, r2))| {
                Op::Alu3(Alu3 {
                    op,
                    dst,
                    srcs: [
                        Operand { abs: false, ..s1 },
                        Operand {
                            kind: SrcKind::Reg(s2.num),
                            half: s2.half,
                            neg: n2,
                            r: r2,
                            ..Operand::default()
                        },
                        Operand { abs: false, ..s3 },
                    ],
                    repeat,
                    nop,
                    sat,
                    ul,
                    dot: DotMode { mixed, high },
                })
            },
        )
        .boxed()
}

fn sfu(op: Opcode) -> BoxedStrategy<Op> {
    (any::<bool>(), any::<bool>())
        .prop_flat_map(move |(half, dst_half)| {
            (
                reg(dst_half),
                operand(half),
                sparse(0u8..4, 0),
                flag(),
                flag(),
            )
        })
        .prop_map(move |(dst, src, repeat, sat, ul)| {
            Op::Sfu(Sfu {
                op,
                dst,
                src,
                repeat,
                sat,
                ul,
            })
        })
        .boxed()
}

fn tex_desc() -> impl Strategy<Value = TexDesc> {
    let mode = prop::sample::select(vec![
        DescMode::Uniform,
        DescMode::BindlessA1Uniform,
        DescMode::BindlessNonuniform,
        DescMode::BindlessA1Nonuniform,
        DescMode::Nonuniform,
        DescMode::BindlessUniform,
    ]);
    prop_oneof![
        (0u8..16, 0u8..128).prop_map(|(samp, tex)| TexDesc::Direct { samp, tex }),
        (mode, any::<u8>(), 0u8..8).prop_map(|(mode, reg, base)| TexDesc::Indexed {
            mode,
            reg,
            base: if mode.is_bindless() { base } else { 0 },
        }),
        (0u8..8, 0u8..16, 0u8..16).prop_map(|(base, samp, tex)| TexDesc::BindlessImm {
            base,
            samp,
            tex
        }),
        (0u8..8, any::<u8>(), any::<bool>()).prop_map(|(base, n, tex)| TexDesc::BindlessA1 {
            base,
            imm: if tex { A1Imm::Tex(n) } else { A1Imm::Samp(n) },
        }),
    ]
}

fn tex(op: Opcode) -> BoxedStrategy<Op> {
    if op == Opcode::Tcinv {
        return Just(Op::Bare(op)).boxed();
    }
    (
        (ty(), 0u8..16, any::<u8>(), any::<bool>()),
        (
            prop::option::of(any::<u8>()),
            prop::option::of(any::<u8>()),
            sparse(prop::option::of(any::<u8>()), None),
        ),
        (flag(), flag(), flag(), flag(), flag(), flag()),
        sparse(tex_desc(), TexDesc::Direct { samp: 0, tex: 0 }),
        sparse(0u8..4, 0),
    )
        .prop_map(
            move |(
                (ty, wrmask, dst, half_src),
                (src1, src2, offset),
                (is_3d, array, o, p, s, one_d),
                desc,
                cluster,
            )| {
                Op::Tex(Tex {
                    op,
                    ty,
                    wrmask,
                    dst,
                    half_src,
                    src1,
                    src2,
                    offset,
                    is_3d,
                    array,
                    o,
                    p,
                    s,
                    one_d,
                    desc,
                    cluster,
                })
            },
        )
        .boxed()
}

fn src8() -> impl Strategy<Value = Src8> {
    prop_oneof![
        any::<u8>().prop_map(Src8::Reg),
        any::<u8>().prop_map(Src8::Imm)
    ]
}

fn addr_src() -> impl Strategy<Value = AddrSrc> {
    prop_oneof![3 => any::<u8>().prop_map(AddrSrc::Reg), 1 => any::<u8>().prop_map(AddrSrc::Const)]
}

fn const_dst() -> impl Strategy<Value = ConstDst> {
    prop_oneof![
        any::<u8>().prop_map(ConstDst::Imm),
        any::<u8>().prop_map(ConstDst::A1)
    ]
}

fn buffer_desc() -> impl Strategy<Value = BufferDesc> {
    (0usize..3, any::<bool>(), 0u8..8).prop_map(|(mode, bindless, base)| BufferDesc {
        mode: [IndexMode::Imm, IndexMode::Uniform, IndexMode::Nonuniform][mode],
        bindless,
        base: if bindless { base } else { 0 },
    })
}

fn mem(op: Opcode) -> BoxedStrategy<Op> {
    let shfl_modes = vec![
        ShflMode::Xor,
        ShflMode::Up,
        ShflMode::Down,
        ShflMode::Rup,
        ShflMode::Rdown,
    ];
    let m: BoxedStrategy<Mem> = match op {
        Opcode::Ldg | Opcode::LdgA | Opcode::Stg | Opcode::StgA => {
            let addr = prop_oneof![
                (-4096i32..4096).prop_map(GlobalAddr::Offset),
                (any::<u8>(), 0u8..4, 0u8..4).prop_map(|(index, shift, offset)| {
                    GlobalAddr::Scaled {
                        index,
                        shift,
                        offset,
                    }
                }),
                (any::<u8>(), any::<u8>())
                    .prop_map(|(index, offset)| GlobalAddr::Indexed { index, offset }),
            ];
            (ty(), any::<u8>(), addr_src(), addr, 0u8..8)
                .prop_map(move |(ty, reg, base, addr, size)| {
                    Mem::Global(Global {
                        op,
                        ty,
                        reg,
                        base,
                        addr,
                        size,
                    })
                })
                .boxed()
        }
        Opcode::LdgK => (ty(), const_dst(), any::<u8>(), -4096i32..4096, 0u8..16)
            .prop_map(|(ty, dst, base, offset, size)| {
                Mem::LdgK(LdgK {
                    ty,
                    dst,
                    base,
                    offset,
                    size,
                })
            })
            .boxed(),
        Opcode::Ldl | Opcode::Ldp | Opcode::Ldlw | Opcode::Stl | Opcode::Stp | Opcode::Stlw => {
            (ty(), any::<u8>(), any::<u8>(), -4096i32..4096, any::<u8>())
                .prop_map(move |(ty, reg, addr, offset, size)| {
                    Mem::Local(Local {
                        op,
                        ty,
                        reg,
                        addr,
                        offset,
                        size,
                    })
                })
                .boxed()
        }
        Opcode::Ldlv => (ty(), any::<u8>(), 0u16..8192, any::<u8>())
            .prop_map(|(ty, dst, offset, size)| {
                Mem::Ldlv(Ldlv {
                    ty,
                    dst,
                    offset,
                    size,
                })
            })
            .boxed(),
        Opcode::Stc => (ty(), const_dst(), any::<u8>(), 0u8..8)
            .prop_map(|(ty, dst, src, size)| Mem::Stc(Stc { ty, dst, src, size }))
            .boxed(),
        Opcode::Stsc => (ty(), 0u16..8192, any::<u8>(), any::<u8>())
            .prop_map(|(ty, dst, src, size)| Mem::Stsc(Stsc { ty, dst, src, size }))
            .boxed(),
        Opcode::Resinfo => (ty(), 1u8..5, any::<u8>(), src8())
            .prop_map(|(ty, d, dst, ssbo)| Mem::Resinfo(Resinfo { ty, d, dst, ssbo }))
            .boxed(),
        Opcode::RayIntersection => (any::<u8>(), addr_src(), any::<[u8; 3]>())
            .prop_map(|(dst, bvh, s)| {
                Mem::Ray(RayIntersection {
                    dst,
                    bvh,
                    src2: s[0],
                    src3: s[1],
                    src4: s[2],
                })
            })
            .boxed(),
        Opcode::Ldc | Opcode::LdcK => (
            flag(),
            0u8..4,
            1u16..257,
            any::<u8>(),
            src8(),
            src8(),
            buffer_desc(),
        )
            .prop_map(move |(u, component, size, dst, src1, src2, desc)| {
                let k = op == Opcode::LdcK;
                Mem::Ldc(Ldc {
                    op,
                    u: u && !k,
                    component: if k { 0 } else { component },
                    size: if k { size } else { size % 4 + 1 },
                    dst: if k { 0 } else { dst },
                    src1,
                    src2,
                    desc,
                })
            })
            .boxed(),
        Opcode::Getspid | Opcode::Getwid | Opcode::Getfiberid => (ty(), any::<u8>())
            .prop_map(move |(ty, dst)| Mem::GetId(GetId { op, ty, dst }))
            .boxed(),
        Opcode::ResinfoB | Opcode::Resbase => (
            any::<bool>(),
            1u8..5,
            ty(),
            1u8..5,
            buffer_desc(),
            any::<u8>(),
            src8(),
        )
            .prop_map(move |(typed, d, ty, type_size, desc, dst, ssbo)| {
                Mem::ResinfoB(ResinfoB {
                    op,
                    typed,
                    d,
                    ty,
                    type_size,
                    desc,
                    dst,
                    ssbo,
                })
            })
            .boxed(),
        Opcode::Shfl => (
            prop::sample::select(shfl_modes),
            ty(),
            any::<u8>(),
            any::<u8>(),
            src8(),
        )
            .prop_map(|(mode, ty, dst, src1, src2)| {
                Mem::Shfl(Shfl {
                    mode,
                    ty,
                    dst,
                    src1,
                    src2,
                })
            })
            .boxed(),
        _ if op.info().has(flags::ATOMIC) && op.info().sub == 0 => (
            any::<bool>(),
            1u8..5,
            ty(),
            1u8..5,
            any::<u8>(),
            src8(),
            src8(),
        )
            .prop_map(move |(typed, d, ty, type_size, dst, src1, src2)| {
                Mem::Atomic(Atomic {
                    op,
                    typed,
                    d,
                    ty,
                    type_size,
                    dst,
                    src1,
                    src2,
                })
            })
            .boxed(),
        _ => (
            (any::<bool>(), 1u8..5, ty(), 1u8..5, buffer_desc()),
            (
                any::<u8>(),
                any::<u8>(),
                sparse(prop::option::of(1u8..128), None),
                src8(),
            ),
        )
            .prop_map(
                move |((typed, d, ty, type_size, desc), (reg, coord, offset, ssbo))| {
                    Mem::Ibo(Ibo {
                        op,
                        typed,
                        d,
                        ty,
                        type_size,
                        desc,
                        reg,
                        coord,
                        offset,
                        ssbo,
                    })
                },
            )
            .boxed(),
    };
    m.prop_map(Op::Mem).boxed()
}

fn cat7(op: Opcode) -> BoxedStrategy<Op> {
    match op {
        Opcode::Bar | Opcode::Fence => any::<[bool; 4]>()
            .prop_map(move |[g, l, r, w]| Op::Barrier(Barrier { op, g, l, r, w }))
            .boxed(),
        Opcode::Sleep => any::<bool>()
            .prop_map(|long| Op::Sleep(Sleep { long }))
            .boxed(),
        Opcode::Dccln | Opcode::Dcinv | Opcode::Dcflu => any::<bool>()
            .prop_map(move |all| Op::Cache(CacheOp { op, all }))
            .boxed(),
        Opcode::Alias => {
            let scope =
                prop::sample::select(vec![AliasScope::Tex, AliasScope::Rt, AliasScope::Mem]);
            let src = prop_oneof![
                any::<u8>().prop_map(AliasSrc::Reg),
                (0u16..2048).prop_map(AliasSrc::Const),
                any::<u32>().prop_map(AliasSrc::Imm),
                any::<u16>().prop_map(|v| AliasSrc::Imm(v as u32)),
            ];
            (
                scope,
                any::<bool>(),
                any::<bool>(),
                0u8..16,
                any::<u8>(),
                src,
            )
                .prop_map(|(scope, int, size32, t, dst, src)| {
                    Op::Alias(Alias {
                        scope,
                        int,
                        size32,
                        table_size_minus_one: t,
                        dst: if scope == AliasScope::Rt {
                            dst & 31
                        } else {
                            dst
                        },
                        src,
                    })
                })
                .boxed()
        }
        _ => Just(Op::Bare(op)).boxed(),
    }
}

/// Instructions of one opcode, with random fields and sync flags.
fn instr_for(op: Opcode) -> BoxedStrategy<Instr> {
    let body = match op.cat() {
        0 => flow(op),
        1 => cat1(op),
        2 => alu(op),
        3 => alu3(op),
        4 => sfu(op),
        5 => tex(op),
        6 => mem(op),
        _ => cat7(op),
    };
    (body, flag(), flag(), flag())
        .prop_map(|(op, sy, ss, jp)| Instr { sy, ss, jp, op })
        .boxed()
}

/// For every opcode on both generations: generated instructions that encode
/// decode to themselves, and print as text that assembles to the same word.
#[test]
fn every_opcode_round_trips() {
    let mut runner = TestRunner::deterministic();
    let mut report = BTreeMap::new();
    for generation in [IsaGen::A6xx, IsaGen::A7xx] {
        for info in OPCODES.iter().filter(|i| i.exists_on(generation)) {
            let strategy = instr_for(info.opcode);
            let mut encoded = 0;
            for _ in 0..400 {
                let x = strategy.new_tree(&mut runner).unwrap().current();
                let Ok(word) = encode(&x, generation) else {
                    continue;
                };
                encoded += 1;
                let back = decode(word, generation)
                    .unwrap_or_else(|e| panic!("{x:?} encodes to {word:016x}, which fails: {e}"));
                assert_eq!(back, x, "{word:016x}");
                let text = x.to_string();
                let words = assemble(&text, generation)
                    .unwrap_or_else(|e| panic!("`{text}` ({word:016x}, {x:?}): {e}"));
                assert_eq!(words, [word], "`{text}`");
            }
            report.insert((generation.to_string(), info.name), encoded);
        }
    }
    let missing: Vec<_> = report.iter().filter(|(_, &n)| n == 0).collect();
    println!(
        "round trip: {} opcode/generation pairs, {} instructions encoded",
        report.len(),
        report.values().sum::<i32>()
    );
    assert!(missing.is_empty(), "no encodable sample for {missing:?}");
}

/// Words near valid encodings: an encoded instruction with a few bits flipped.
fn near_word(generation: IsaGen) -> impl Strategy<Value = u64> {
    let ops: Vec<Opcode> = OPCODES
        .iter()
        .filter(|i| i.exists_on(generation))
        .map(|i| i.opcode)
        .collect();
    (prop::sample::select(ops), any::<u64>(), 0u32..4)
        .prop_flat_map(|(op, mask, flips)| instr_for(op).prop_map(move |x| (x, mask, flips)))
        .prop_map(move |(x, mask, flips)| {
            let base = encode(&x, generation).unwrap_or(mask);
            let mut w = base;
            for i in 0..flips {
                w ^= 1 << ((mask >> (i * 6)) & 63);
            }
            w
        })
}

/// A word that decodes prints as text that assembles back to it, and its
/// program disassembly too.
fn check_word(w: u64, generation: IsaGen) -> Result<(), TestCaseError> {
    let text = disassemble(&[w], generation);
    let back = assemble(&text, generation);
    prop_assert_eq!(back, Ok(vec![w]), "`{}`", text.trim());
    if let Ok(x) = decode(w, generation) {
        prop_assert_eq!(encode(&x, generation), Ok(w));
        prop_assert_eq!(assemble(&x.to_string(), generation), Ok(vec![w]));
    }
    let _ = decode_permissive(w, generation);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn random_words_round_trip_or_fail_cleanly(w in any::<u64>()) {
        check_word(w, IsaGen::A6xx)?;
        check_word(w, IsaGen::A7xx)?;
    }

    #[test]
    fn sparse_words_round_trip_or_fail_cleanly(a in any::<u64>(), b in any::<u64>(), c in any::<u64>()) {
        // Few bits set, so the don't-care bits are often clear.
        let w = a & b & c | (a & 0xe000_0000_0000_0000);
        check_word(w, IsaGen::A6xx)?;
        check_word(w, IsaGen::A7xx)?;
    }

    #[test]
    fn near_valid_words_round_trip_or_fail_cleanly(w in near_word(IsaGen::A6xx), v in near_word(IsaGen::A7xx)) {
        check_word(w, IsaGen::A6xx)?;
        check_word(v, IsaGen::A7xx)?;
    }

    #[test]
    fn random_text_gives_errors_not_panics(text in "(\\PC|\\n){0,80}") {
        if let Err(e) = assemble(&text, IsaGen::A6xx) {
            prop_assert!(e.line >= 1 && e.line <= text.lines().count().max(1));
            prop_assert!(e.column >= 1);
            prop_assert!(!e.message.is_empty());
        }
    }

    #[test]
    fn damaged_instructions_give_errors_not_panics(
        x in prop::sample::select(OPCODES.to_vec()).prop_flat_map(|i| instr_for(i.opcode)),
        cut in any::<prop::sample::Index>(),
        junk in "[ -~]{0,3}",
    ) {
        let text = x.to_string();
        let at = cut.index(text.len() + 1);
        for damaged in [
            format!("{}{}{}", &text[..at], junk, &text[at..]),
            text[..at].to_string(),
            format!("{}{}", &text[..at], text.get(at + 1..).unwrap_or("")),
        ] {
            for generation in [IsaGen::A6xx, IsaGen::A7xx] {
                if let Err(e) = assemble(&damaged, generation) {
                    prop_assert_eq!(e.line, 1);
                    prop_assert!(e.column >= 1 && e.column <= damaged.chars().count() + 1);
                }
            }
        }
    }
}
