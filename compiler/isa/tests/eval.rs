//! The evaluation rules that matter to a compiler and a simulator: integer
//! conversions clamp or truncate, shift amounts wrap, f16 results round to
//! nearest even, (sat), comparisons and their conditions, sel, min/max with
//! NaN, the multiply pieces Mesa lowers imul to, unfused mad.

use parsnip_isa::eval::{eval_alu, AluOp, EvalError, SrcMods};
use parsnip_isa::{assemble, decode, Cond, IsaGen, Opcode, Round, Type};
use proptest::prelude::*;

fn f(x: f32) -> u32 {
    x.to_bits()
}

fn op(opcode: Opcode) -> AluOp {
    AluOp::new(opcode, false)
}

fn half(opcode: Opcode) -> AluOp {
    AluOp::new(opcode, true)
}

fn cov(src: Type, dst: Type, round: Round, bits: u32) -> Result<u32, EvalError> {
    eval_alu(&AluOp::conversion(src, dst, round), &[bits])
}

/// The operation of an assembled instruction.
fn asm(text: &str) -> AluOp {
    let word = assemble(text, IsaGen::A6xx).unwrap()[0];
    AluOp::from_instr(&decode(word, IsaGen::A6xx).unwrap()).unwrap()
}

#[test]
fn float_to_16_bit_integer_clamps() {
    assert_eq!(
        cov(Type::F32, Type::U16, Round::Zero, f(70000.0)),
        Ok(0xffff)
    );
    assert_eq!(cov(Type::F32, Type::U16, Round::Zero, f(-5.0)), Ok(0));
    assert_eq!(
        cov(Type::F32, Type::S16, Round::Zero, f(-40000.0)),
        Ok(0x8000)
    );
    assert_eq!(
        cov(Type::F32, Type::S16, Round::Zero, f(40000.0)),
        Ok(0x7fff)
    );
    assert_eq!(cov(Type::F32, Type::U32, Round::Zero, f(-1.0)), Ok(0));
    assert_eq!(
        cov(Type::F32, Type::S32, Round::Zero, f(3e9)),
        Ok(i32::MAX as u32)
    );
    assert_eq!(cov(Type::F32, Type::U16, Round::Zero, f(f32::NAN)), Ok(0));
    // The instruction as freedreno writes it gives the same.
    assert_eq!(
        eval_alu(&asm("cov.f32u16 hr0.x, r0.x"), &[f(1e9)]),
        Ok(0xffff)
    );
}

#[test]
fn float_to_integer_rounds_by_the_rounding_field() {
    let cases = [
        (Round::Zero, 2.5, 2),
        (Round::Even, 2.5, 2),
        (Round::Even, 3.5, 4),
        (Round::PosInf, 2.1, 3),
        (Round::NegInf, -2.1, -3),
        (Round::Zero, -2.9, -2),
    ];
    for (round, x, n) in cases {
        assert_eq!(
            cov(Type::F32, Type::S32, round, f(x)),
            Ok(n as u32),
            "{round:?} {x}"
        );
    }
}

#[test]
fn integer_narrowing_truncates_and_u8_sign_extends() {
    assert_eq!(
        cov(Type::U32, Type::U16, Round::Zero, 0x1234_5678),
        Ok(0x5678)
    );
    assert_eq!(
        cov(Type::S32, Type::S16, Round::Zero, 0xfff1_8000),
        Ok(0x8000)
    );
    assert_eq!(
        cov(Type::S16, Type::S32, Round::Zero, 0x8000),
        Ok(0xffff_8000)
    );
    assert_eq!(cov(Type::U16, Type::U32, Round::Zero, 0x8000), Ok(0x8000));
    assert_eq!(cov(Type::U8, Type::S32, Round::Zero, 0x80), Ok(0xffff_ff80));
    assert!(matches!(
        cov(Type::U8, Type::F32, Round::Zero, 1),
        Err(EvalError::Unknown { .. })
    ));
}

#[test]
fn integer_to_float_rounds_by_the_rounding_field() {
    // 2^24 + 1 is not an f32.
    let n = (1u32 << 24) + 1;
    assert_eq!(cov(Type::U32, Type::F32, Round::Zero, n), Ok(f(16777216.0)));
    assert_eq!(cov(Type::U32, Type::F32, Round::Even, n), Ok(f(16777216.0)));
    assert_eq!(
        cov(Type::U32, Type::F32, Round::PosInf, n),
        Ok(f(16777218.0))
    );
    assert_eq!(
        cov(Type::S32, Type::F16, Round::Even, (-3i32) as u32),
        Ok(0xc200)
    );
}

#[test]
fn f16_results_round_to_nearest_even() {
    // 1 + 2^-11 lies halfway between 1.0 (0x3c00) and 0x3c01: even wins.
    let add = half(Opcode::AddF);
    assert_eq!(eval_alu(&add, &[0x3c00, 0x1000]), Ok(0x3c00));
    assert_eq!(eval_alu(&add, &[0x3c01, 0x1000]), Ok(0x3c02));
    assert_eq!(eval_alu(&add, &[0x7bff, 0x7bff]), Ok(0x7c00));
    // cov.f32f16 rounds toward zero unless marked (even).
    let x = f(1.0 + 3.0 * 2f32.powi(-11));
    assert_eq!(cov(Type::F32, Type::F16, Round::Zero, x), Ok(0x3c01));
    assert_eq!(cov(Type::F32, Type::F16, Round::Even, x), Ok(0x3c02));
    assert_eq!(
        cov(Type::F32, Type::F16, Round::Zero, f(65520.0)),
        Ok(0x7bff)
    );
    assert_eq!(
        cov(Type::F32, Type::F16, Round::Even, f(65520.0)),
        Ok(0x7c00)
    );
    // A full-precision add written to a half register.
    let mut conv = op(Opcode::AddF);
    conv.dst_half = true;
    assert_eq!(eval_alu(&conv, &[f(1.0), f(2f32.powi(-11))]), Ok(0x3c00));
}

#[test]
fn shift_amounts_wrap_at_the_operand_width() {
    assert_eq!(eval_alu(&op(Opcode::ShlB), &[1, 33]), Ok(2));
    assert_eq!(eval_alu(&op(Opcode::ShlB), &[1, 32]), Ok(1));
    assert_eq!(eval_alu(&op(Opcode::ShrB), &[0x8000_0000, 63]), Ok(1));
    assert_eq!(
        eval_alu(&op(Opcode::AshrB), &[0x8000_0000, 31]),
        Ok(u32::MAX)
    );
    assert_eq!(eval_alu(&half(Opcode::AshrB), &[0x8000, 17]), Ok(0xc000));
    assert_eq!(eval_alu(&half(Opcode::ShlB), &[1, 16]), Ok(1));
    assert_eq!(eval_alu(&half(Opcode::ShlB), &[1, 15]), Ok(0x8000));
    // shlg: (src2 << src1) | src3.
    assert_eq!(eval_alu(&op(Opcode::Shlg), &[36, 1, 0x100]), Ok(0x110));
}

#[test]
fn saturate_clamps_floats_and_add_sub() {
    let mut add = op(Opcode::AddF);
    add.sat = true;
    assert_eq!(eval_alu(&add, &[f(0.75), f(0.5)]), Ok(f(1.0)));
    assert_eq!(eval_alu(&add, &[f(-0.75), f(0.5)]), Ok(f(0.0)));
    assert_eq!(eval_alu(&add, &[f(f32::NAN), f(0.5)]), Ok(f(0.0)));
    let mut addu = op(Opcode::AddU);
    assert_eq!(eval_alu(&addu, &[u32::MAX, 1]), Ok(0));
    addu.sat = true;
    assert_eq!(eval_alu(&addu, &[u32::MAX, 1]), Ok(u32::MAX));
    let mut subu = op(Opcode::SubU);
    subu.sat = true;
    assert_eq!(eval_alu(&subu, &[0, 1]), Ok(0));
    let mut adds = half(Opcode::AddS);
    adds.sat = true;
    assert_eq!(eval_alu(&adds, &[0x7fff, 1]), Ok(0x7fff));
    assert_eq!(eval_alu(&adds, &[0x8000, 0xffff]), Ok(0x8000));
    // (sat) does not work on sel.* and cat4 (Mesa's is_sat_compatible).
    let mut sel = op(Opcode::SelB32);
    sel.sat = true;
    assert!(matches!(
        eval_alu(&sel, &[1, 1, 2]),
        Err(EvalError::Unknown { .. })
    ));
    let mut rcp = op(Opcode::Rcp);
    rcp.sat = true;
    assert!(matches!(
        eval_alu(&rcp, &[f(2.0)]),
        Err(EvalError::Unknown { .. })
    ));
}

#[test]
fn halving_add() {
    let mut add = op(Opcode::AddU);
    add.halving = true;
    assert_eq!(eval_alu(&add, &[u32::MAX, 1]), Ok(0x8000_0000));
    let mut adds = op(Opcode::AddS);
    adds.halving = true;
    assert_eq!(eval_alu(&adds, &[(-3i32) as u32, 0]), Ok((-2i32) as u32));
}

#[test]
fn comparisons_write_one_or_zero() {
    let nan = f(f32::NAN);
    let cases = [
        (Cond::Lt, f(1.0), f(2.0), 1),
        (Cond::Le, f(2.0), f(2.0), 1),
        (Cond::Gt, f(1.0), f(2.0), 0),
        (Cond::Ge, f(-0.0), f(0.0), 1),
        (Cond::Eq, f(-0.0), f(0.0), 1),
        (Cond::Ne, f(1.0), f(1.0), 0),
        (Cond::Lt, nan, f(1.0), 0),
        (Cond::Ge, nan, f(1.0), 0),
        (Cond::Eq, nan, nan, 0),
        (Cond::Ne, nan, nan, 1),
    ];
    for (cond, a, b, r) in cases {
        let mut cmp = op(Opcode::CmpsF);
        cmp.cond = cond;
        assert_eq!(eval_alu(&cmp, &[a, b]), Ok(r), "{cond:?} {a:#x} {b:#x}");
    }
    let mut s = op(Opcode::CmpsS);
    s.cond = Cond::Lt;
    assert_eq!(eval_alu(&s, &[u32::MAX, 0]), Ok(1));
    let mut u = op(Opcode::CmpsU);
    u.cond = Cond::Lt;
    assert_eq!(eval_alu(&u, &[u32::MAX, 0]), Ok(0));
    let mut hs = half(Opcode::CmpsS);
    hs.cond = Cond::Lt;
    assert_eq!(eval_alu(&hs, &[0xffff, 0]), Ok(1));
    // The condition and half registers as assembled.
    assert_eq!(
        eval_alu(&asm("cmps.s.ge hr0.x, hr0.y, hr0.z"), &[0, 0xffff]),
        Ok(1)
    );
}

#[test]
fn sel_picks_by_its_second_source() {
    assert_eq!(eval_alu(&op(Opcode::SelB32), &[10, 7, 20]), Ok(10));
    assert_eq!(eval_alu(&op(Opcode::SelB32), &[10, 0, 20]), Ok(20));
    assert_eq!(eval_alu(&half(Opcode::SelB16), &[10, 0x100, 20]), Ok(10));
    assert_eq!(eval_alu(&op(Opcode::SelF32), &[10, f(0.0), 20]), Ok(10));
    assert_eq!(eval_alu(&op(Opcode::SelF32), &[10, f(-0.0), 20]), Ok(20));
    assert_eq!(eval_alu(&op(Opcode::SelS32), &[10, u32::MAX, 20]), Ok(20));
}

#[test]
fn min_max_return_the_number_over_nan() {
    let nan = f(f32::NAN);
    assert_eq!(eval_alu(&op(Opcode::MinF), &[nan, f(1.0)]), Ok(f(1.0)));
    assert_eq!(eval_alu(&op(Opcode::MaxF), &[f(1.0), nan]), Ok(f(1.0)));
    assert_eq!(eval_alu(&op(Opcode::MinF), &[f(0.0), f(-0.0)]), Ok(f(-0.0)));
    assert_eq!(eval_alu(&op(Opcode::MaxF), &[f(-0.0), f(0.0)]), Ok(f(0.0)));
    assert_eq!(eval_alu(&op(Opcode::MaxF), &[f(-1.0), f(2.0)]), Ok(f(2.0)));
    let both = eval_alu(&op(Opcode::MinF), &[nan, nan]).unwrap();
    assert!(f32::from_bits(both).is_nan());
    assert_eq!(eval_alu(&op(Opcode::MinS), &[u32::MAX, 1]), Ok(u32::MAX));
    assert_eq!(eval_alu(&op(Opcode::MinU), &[u32::MAX, 1]), Ok(1));
}

#[test]
fn source_modifiers_by_value_kind() {
    let neg = SrcMods {
        neg: true,
        abs: false,
    };
    let abs = SrcMods {
        neg: false,
        abs: true,
    };
    let mut addf = op(Opcode::AddF);
    addf.mods[1] = neg;
    assert_eq!(eval_alu(&addf, &[f(5.0), f(3.0)]), Ok(f(2.0)));
    let mut adds = op(Opcode::AddS);
    adds.mods[1] = neg;
    assert_eq!(eval_alu(&adds, &[5, 3]), Ok(2));
    adds.mods[1] = abs;
    assert_eq!(eval_alu(&adds, &[5, (-3i32) as u32]), Ok(8));
    // (neg) inverts the bits of a .b operation.
    let mut and = op(Opcode::AndB);
    and.mods[0] = neg;
    assert_eq!(eval_alu(&and, &[0xff, 0xfff]), Ok(0xf00));
    and.mods[0] = abs;
    assert!(matches!(
        eval_alu(&and, &[1, 1]),
        Err(EvalError::Unknown { .. })
    ));
    // absneg.f is the modifiers alone; a NaN keeps its payload.
    let mut absneg = half(Opcode::AbsnegF);
    absneg.mods[0] = abs;
    assert_eq!(eval_alu(&absneg, &[0xfe01]), Ok(0x7e01));
    assert_eq!(
        eval_alu(&asm("add.f r0.x, (neg)r0.y, (abs)r0.z"), &[f(1.0), f(-4.0)]),
        Ok(f(3.0))
    );
}

#[test]
fn count_leading_zeros_gives_minus_one_for_zero() {
    assert_eq!(eval_alu(&op(Opcode::ClzB), &[0]), Ok(u32::MAX));
    assert_eq!(eval_alu(&op(Opcode::ClzB), &[1]), Ok(31));
    assert_eq!(eval_alu(&half(Opcode::ClzB), &[1]), Ok(15));
    assert_eq!(eval_alu(&op(Opcode::ClzS), &[u32::MAX]), Ok(u32::MAX));
    assert_eq!(eval_alu(&op(Opcode::ClzS), &[(-2i32) as u32]), Ok(31));
    assert_eq!(eval_alu(&op(Opcode::ClzS), &[0x4000_0000]), Ok(1));
    assert_eq!(eval_alu(&op(Opcode::BfrevB), &[1]), Ok(0x8000_0000));
    assert_eq!(eval_alu(&half(Opcode::BfrevB), &[1]), Ok(0x8000));
    assert_eq!(eval_alu(&op(Opcode::CbitsB), &[0xf0f0]), Ok(8));
}

#[test]
fn mad_is_not_fused() {
    // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24 rounds to 1 + 2^-11 before the add.
    let a = f(1.0 + 2f32.powi(-12));
    let c = f(-(1.0 + 2f32.powi(-11)));
    assert_eq!(eval_alu(&op(Opcode::MadF32), &[a, a, c]), Ok(f(0.0)));
}

#[test]
fn dot_products() {
    let mut dp = op(Opcode::Dp4acc);
    dp.dot.mixed = true;
    // (-1, 2, 3, 4) . (1, 1, 1, 1) + 10
    assert_eq!(eval_alu(&dp, &[0x0403_02ff, 0x0101_0101, 10]), Ok(18));
    let mut dp2 = op(Opcode::Dp2acc);
    dp2.dot.high = true;
    assert_eq!(eval_alu(&dp2, &[0x0302_0000, 0x0202_0000, 1]), Ok(11));
}

#[test]
fn sfu_results_are_correctly_rounded() {
    assert_eq!(eval_alu(&op(Opcode::Rcp), &[f(4.0)]), Ok(f(0.25)));
    assert_eq!(eval_alu(&op(Opcode::Rsq), &[f(4.0)]), Ok(f(0.5)));
    assert_eq!(eval_alu(&op(Opcode::Exp2), &[f(3.0)]), Ok(f(8.0)));
    assert_eq!(eval_alu(&half(Opcode::Hlog2), &[0x4400]), Ok(0x4000));
    assert_eq!(eval_alu(&op(Opcode::Sqrt), &[f(-1.0)]), Ok(0x7fc0_0000));
}

#[test]
fn not_alu_and_unknown_operations_are_refused() {
    assert_eq!(
        eval_alu(&op(Opcode::BaryF), &[0, 0]),
        Err(EvalError::NotAlu(Opcode::BaryF))
    );
    assert!(matches!(
        eval_alu(&op(Opcode::CmpvF), &[0, 0]),
        Err(EvalError::Unknown { .. })
    ));
    assert_eq!(
        eval_alu(&op(Opcode::AddF), &[0]),
        Err(EvalError::MissingSource(Opcode::AddF))
    );
}

#[test]
fn madsh_m16_multiplies_the_first_low_half_by_the_second_high_half() {
    // (a & 0xffff) * (b >> 16) << 16 + c, worked by hand: Turnip's `x * 3`
    // is mull.u then madsh.m16 with the 3 first.
    let m = |a, b, c| eval_alu(&op(Opcode::MadshM16), &[a, b, c]);
    assert_eq!(m(3, 0x0002_0005, 7), Ok(((3 * 2) << 16) + 7));
    assert_eq!(m(0x0002_0005, 3, 7), Ok(7));
    assert_eq!(
        m(0xffff, 0xffff_0000, 0),
        Ok(0xffff_0001u32.wrapping_shl(16))
    );
    let x = 0x1234_5678u32;
    let lo = eval_alu(&op(Opcode::MullU), &[x, 3]).unwrap();
    assert_eq!(m(3, x, lo), Ok(x.wrapping_mul(3)));
}

proptest! {
    /// Mesa lowers a 32-bit imul to mull.u plus two madsh.m16
    /// (`ir3_nir_imul.py`): the pieces must add up to the product.
    #[test]
    fn imul_lowering_pieces_multiply(a in any::<u32>(), b in any::<u32>()) {
        let lo = eval_alu(&op(Opcode::MullU), &[a, b]).unwrap();
        let mid = eval_alu(&op(Opcode::MadshM16), &[a, b, lo]).unwrap();
        let all = eval_alu(&op(Opcode::MadshM16), &[b, a, mid]).unwrap();
        prop_assert_eq!(all, a.wrapping_mul(b));
    }

    /// mul.u24/mad.u24 agree with a wide multiply of the low 24 bits.
    #[test]
    fn mul24_is_a_24_bit_multiply(a in 0u32..1 << 24, b in 0u32..1 << 24, c in any::<u32>()) {
        prop_assert_eq!(eval_alu(&op(Opcode::MulU24), &[a, b]), Ok(a.wrapping_mul(b)));
        prop_assert_eq!(
            eval_alu(&op(Opcode::MadU24), &[a, b, c]),
            Ok(a.wrapping_mul(b).wrapping_add(c))
        );
    }

    /// An f32 that fits in f16 survives cov.f32f16 and back exactly.
    #[test]
    fn f16_conversions_round_trip(h in any::<u16>()) {
        let wide = cov(Type::F16, Type::F32, Round::Zero, h as u32).unwrap();
        let back = cov(Type::F32, Type::F16, Round::Even, wide).unwrap();
        if f32::from_bits(wide).is_nan() {
            prop_assert!(back & 0x7c00 == 0x7c00 && back & 0x3ff != 0);
        } else {
            prop_assert_eq!(back, h as u32);
        }
    }
}
