//! Integer and floating-point arithmetic, checked against the same
//! operations done by Rust on the CPU with the semantics SPIR-V gives them.

use super::one_dispatch::{check_one_dispatch, one_dispatch};
use super::pseudo_random::Sequence;
use crate::bytes::{from_bytes, to_bytes};
use crate::case::{Case, CaseResult, Stop};
use crate::harness::Harness;
use crate::shaders;

pub const CASES: &[Case] = &[
    Case {
        name: "arithmetic.int_wrapping",
        run: int_wrapping,
    },
    Case {
        name: "arithmetic.int_division",
        run: int_division,
    },
    Case {
        name: "arithmetic.shifts_bitwise",
        run: shifts_bitwise,
    },
    Case {
        name: "arithmetic.bit_ops",
        run: bit_ops,
    },
    Case {
        name: "arithmetic.compare_select",
        run: compare_select,
    },
    Case {
        name: "arithmetic.float_exact",
        run: float_exact,
    },
    Case {
        name: "arithmetic.float_conversions",
        run: float_conversions,
    },
    Case {
        name: "arithmetic.float_tolerances",
        run: float_tolerances,
    },
    Case {
        name: "arithmetic.packing",
        run: packing,
    },
    Case {
        name: "arithmetic.int64",
        run: int64,
    },
    Case {
        name: "arithmetic.int64_division",
        run: int64_division,
    },
    Case {
        name: "arithmetic.ldexp_range",
        run: ldexp_range,
    },
];

/// Invocations per case: four workgroups of the shaders' 64.
const N: usize = 256;
const GROUPS: u32 = (N / 64) as u32;

/// 32-bit add, subtract, multiply (unsigned and signed) wrap modulo 2^32.
fn int_wrapping(h: &mut Harness) -> Result<CaseResult, Stop> {
    let mut operands = Sequence::new(1).u32s(2 * N);
    operands[..8].copy_from_slice(&[u32::MAX, 1, 0, 1, 0x8000_0000, u32::MAX, 0xffff, 0x1_0001]);
    let want: Vec<u32> = operands
        .chunks(2)
        .flat_map(|p| {
            let (a, b) = (p[0], p[1]);
            [
                a.wrapping_add(b),
                a.wrapping_sub(b),
                a.wrapping_mul(b),
                (a as i32).wrapping_mul(b as i32) as u32,
            ]
        })
        .collect();
    check_one_dispatch(
        h,
        &shaders::INT_WRAPPING,
        &to_bytes(&operands),
        &want,
        GROUPS,
    )
}

/// Unsigned division and remainder; signed division with negative operands;
/// signed remainder of non-negative operands (GLSL leaves the rest undefined).
fn int_division(h: &mut Harness) -> Result<CaseResult, Stop> {
    let mut seq = Sequence::new(2);
    let mut operands = Vec::with_capacity(2 * N);
    for i in 0..N {
        let a = seq.next_u32();
        // Small divisors exercise remainders; large ones the quotient's range.
        let mut b = match i % 3 {
            0 => seq.below(1000) + 1,
            1 => (seq.below(1000) + 1).wrapping_neg(),
            _ => seq.next_u32() | 1,
        };
        // INT_MIN / -1 is undefined in SPIR-V, and the remainder's divisor
        // (b without its sign bit) must not be 0: keep both out.
        if (a == 0x8000_0000 && b == u32::MAX) || b == 0x8000_0000 {
            b = 3;
        }
        operands.extend([a, b]);
    }
    operands[..6].copy_from_slice(&[7, 2, 7u32.wrapping_neg(), 2, 7, 2u32.wrapping_neg()]);
    let want: Vec<u32> = operands
        .chunks(2)
        .flat_map(|p| {
            let (a, b) = (p[0], p[1]);
            let (sa, sb) = (a as i32, b as i32);
            [
                a / b,
                a % b,
                (sa / sb) as u32,
                (sa & i32::MAX) as u32 % (sb & i32::MAX) as u32,
            ]
        })
        .collect();
    check_one_dispatch(
        h,
        &shaders::INT_DIVISION,
        &to_bytes(&operands),
        &want,
        GROUPS,
    )
}

/// Shifts by 0..31 and bitwise logic.
fn shifts_bitwise(h: &mut Harness) -> Result<CaseResult, Stop> {
    let operands = Sequence::new(3).u32s(2 * N);
    let want: Vec<u32> = operands
        .chunks(2)
        .flat_map(|p| {
            let (a, b) = (p[0], p[1]);
            let s = b & 31;
            [
                a << s,
                a >> s,
                ((a as i32) >> s) as u32,
                a & b,
                a | b,
                a ^ b,
                !a,
                a.rotate_left(7),
            ]
        })
        .collect();
    check_one_dispatch(
        h,
        &shaders::SHIFTS_BITWISE,
        &to_bytes(&operands),
        &want,
        GROUPS,
    )
}

fn low_mask(bits: u32) -> u32 {
    if bits >= 32 {
        u32::MAX
    } else {
        (1 << bits) - 1
    }
}

/// GLSL's findMSB on a signed value: the highest bit that differs from the
/// sign bit, -1 for 0 and -1.
fn find_msb_signed(a: i32) -> i32 {
    let v = if a < 0 { !a } else { a };
    if v == 0 {
        -1
    } else {
        31 - v.leading_zeros() as i32
    }
}

/// Bit-field extract (zero- and sign-extending) and insert with offset +
/// bits <= 32, bit counting, lowest and highest set bit, reversal.
fn bit_ops(h: &mut Harness) -> Result<CaseResult, Stop> {
    let mut seq = Sequence::new(4);
    let mut operands = Vec::with_capacity(4 * N);
    for i in 0..N {
        let a = match i % 8 {
            0 => 0,
            1 => u32::MAX,
            2 => 1 << seq.below(32),
            _ => seq.next_u32(),
        };
        let b = seq.next_u32();
        let bits = seq.below(33);
        let offset = seq.below(33 - bits);
        operands.extend([a, b, offset, bits]);
    }
    let want: Vec<u32> = operands
        .chunks(4)
        .flat_map(|p| {
            let (a, b, offset, bits) = (p[0], p[1], p[2], p[3]);
            let extract_u = if bits == 0 {
                0
            } else {
                (a >> offset) & low_mask(bits)
            };
            let extract_i = if bits == 0 {
                0
            } else {
                (((a << (32 - offset - bits)) as i32) >> (32 - bits)) as u32
            };
            let mask = if bits == 0 {
                0
            } else {
                low_mask(bits) << offset
            };
            let insert = (a & !mask) | ((b << (offset % 32)) & mask);
            let lsb = if a == 0 {
                -1
            } else {
                a.trailing_zeros() as i32
            };
            let msb = if a == 0 {
                -1
            } else {
                31 - a.leading_zeros() as i32
            };
            [
                extract_u,
                extract_i,
                insert,
                a.count_ones(),
                lsb as u32,
                msb as u32,
                find_msb_signed(a as i32) as u32,
                a.reverse_bits(),
            ]
        })
        .collect();
    check_one_dispatch(h, &shaders::BIT_OPS, &to_bytes(&operands), &want, GROUPS)
}

/// Comparisons, min/max and selection, signed and unsigned.
fn compare_select(h: &mut Harness) -> Result<CaseResult, Stop> {
    let mut seq = Sequence::new(5);
    let mut operands = Vec::with_capacity(2 * N);
    for i in 0..N {
        let a = seq.next_u32();
        // Equal operands and operands close to each other, too.
        let b = match i % 4 {
            0 => a,
            1 => a.wrapping_add(seq.below(3)).wrapping_sub(1),
            2 => seq.below(2000),
            _ => seq.next_u32(),
        };
        operands.extend([a, b]);
    }
    let want: Vec<u32> = operands
        .chunks(2)
        .flat_map(|p| {
            let (a, b) = (p[0], p[1]);
            let (sa, sb) = (a as i32, b as i32);
            let flags = u32::from(a < b)
                | u32::from(sa < sb) << 1
                | u32::from(a == b) << 2
                | u32::from(sa >= sb) << 3
                | u32::from(a != b && sa > 0) << 4
                | u32::from(a <= b || sb < 0) << 5;
            let select = if sa < 0 {
                a
            } else if b > 1000 {
                b.wrapping_sub(a)
            } else {
                a.wrapping_add(b)
            };
            [
                flags,
                a.min(b),
                sa.min(sb) as u32,
                a.max(b),
                sa.max(sb) as u32,
                select,
            ]
        })
        .collect();
    check_one_dispatch(
        h,
        &shaders::COMPARE_SELECT,
        &to_bytes(&operands),
        &want,
        GROUPS,
    )
}

/// A float with a random 24-bit significand and an exponent in
/// `-spread..spread`: far from overflow, underflow and denormals, so
/// additions and products of two of them are normal.
fn float_in(seq: &mut Sequence, spread: i32) -> f32 {
    let significand = (seq.next_u32() >> 8) as f32 / (1u32 << 23) as f32; // [0, 2)
    let exponent = seq.below(2 * spread as u32) as i32 - spread;
    let sign = if seq.below(2) == 0 { 1.0 } else { -1.0 };
    sign * (1.0 + significand / 2.0) * 2f32.powi(exponent)
}

/// Correctly rounded add, subtract and multiply; exact abs, negate, min,
/// max, floor, ceil, trunc, roundEven and clamp.
fn float_exact(h: &mut Harness) -> Result<CaseResult, Stop> {
    let mut seq = Sequence::new(6);
    let mut operands: Vec<f32> = (0..2 * N).map(|_| float_in(&mut seq, 20)).collect();
    // Ties for roundEven, and values around the clamp bounds.
    operands[..8].copy_from_slice(&[2.5, 1.0, -3.5, 1.0, 0.5, 2.25, -1.5, 3.0]);
    let want: Vec<f32> = operands
        .chunks(2)
        .flat_map(|p| {
            let (a, b) = (p[0], p[1]);
            [
                a + b,
                a - b,
                a * b,
                a.abs(),
                -b,
                a.min(b),
                a.max(b),
                a.floor(),
                a.ceil(),
                a.trunc(),
                a.round_ties_even(),
                a.clamp(-1.5, 2.25),
            ]
        })
        .collect();
    check_one_dispatch(
        h,
        &shaders::FLOAT_EXACT,
        &to_bytes(&operands),
        &want,
        GROUPS,
    )
}

/// Float to integer truncates toward zero; integer to float rounds to
/// nearest even; fract and sign on values where they are exact.
fn float_conversions(h: &mut Harness) -> Result<CaseResult, Stop> {
    let mut seq = Sequence::new(7);
    let mut operands = Vec::with_capacity(4 * N);
    for i in 0..N {
        // |f| < 2^30 converts to int; g is a multiple of 1/256 below 2^15,
        // so |g| converts to uint and fract(g) is exact.
        let f = if i % 16 == 0 {
            0.0
        } else {
            float_in(&mut seq, 30)
        };
        let g = (seq.next_u32() as i32 >> 8) as f32 / 256.0;
        let n = seq.next_u32();
        let u = seq.next_u32();
        operands.extend([f.to_bits(), g.to_bits(), n, u]);
    }
    let want: Vec<u32> = operands
        .chunks(4)
        .flat_map(|p| {
            let (f, g) = (f32::from_bits(p[0]), f32::from_bits(p[1]));
            let (n, u) = (p[2] as i32, p[3]);
            let sign = if f > 0.0 {
                2
            } else if f < 0.0 {
                0
            } else {
                1
            };
            [
                f as i32 as u32,
                g.abs() as u32,
                (n as f32).to_bits(),
                (u as f32).to_bits(),
                ((n >> 8) as f32).to_bits(),
                sign,
                (g - g.floor()).to_bits(),
                u32::from(f < g),
            ]
        })
        .collect();
    check_one_dispatch(
        h,
        &shaders::FLOAT_CONVERSIONS,
        &to_bytes(&operands),
        &want,
        GROUPS,
    )
}

/// One unit in the last place of an f32 of magnitude `w`.
fn ulp(w: f64) -> f64 {
    let w = w.abs().max(f64::from(f32::MIN_POSITIVE));
    2f64.powi(w.log2().floor() as i32 - 23)
}

/// Division, square roots, exp2, log2, sin and cos, within the precision
/// the Vulkan specification requires ("Precision and Operation of SPIR-V
/// Instructions").
fn float_tolerances(h: &mut Harness) -> Result<CaseResult, Stop> {
    use std::f32::consts::PI;
    let mut seq = Sequence::new(8);
    let mut operands = Vec::with_capacity(4 * N);
    for _ in 0..N {
        let x = (seq.next_u32() as f64 / f64::from(u32::MAX) * 2.0 - 1.0) as f32 * PI;
        let y = float_in(&mut seq, 10);
        let z = float_in(&mut seq, 10).abs();
        let w = (seq.next_u32() as f64 / f64::from(u32::MAX) * 20.0 - 10.0) as f32;
        operands.extend([x, y, z, w]);
    }
    let mut want = Vec::new();
    let mut tolerance = Vec::new();
    for p in operands.chunks(4) {
        let (x, y, z, w) = (p[0] as f64, p[1] as f64, p[2] as f64, p[3] as f64);
        let q = x / y;
        let root = z.sqrt();
        let inverse_root = 1.0 / root;
        let e = w.exp2();
        let l = z.log2();
        let log_tolerance = if (0.5..=2.0).contains(&z) {
            2f64.powi(-21)
        } else {
            3.0 * ulp(l)
        };
        want.extend([q, root, inverse_root, e, l, x.sin(), x.cos()]);
        tolerance.extend([
            2.5 * ulp(q),
            // sqrt inherits 1.0 / inversesqrt: 2 ULP, then 2.5 ULP.
            5.0 * 2f64.powi(-23) * root,
            2.0 * ulp(inverse_root),
            (3.0 + 2.0 * w.abs()) * ulp(e),
            log_tolerance,
            2f64.powi(-11),
            2f64.powi(-11),
        ]);
    }
    let got = one_dispatch(
        h,
        &shaders::FLOAT_TOLERANCES,
        &to_bytes(&operands),
        28 * N as u64,
        GROUPS,
    )?;
    let mut result = CaseResult::new();
    result.check_within("results", &from_bytes::<f32>(&got), &want, &tolerance);
    Ok(result)
}

/// A normal, finite half float's value.
fn half_to_f32(bits: u16) -> f32 {
    let sign = u32::from(bits >> 15) << 31;
    let exponent = u32::from((bits >> 10) & 0x1f) + 127 - 15;
    let mantissa = u32::from(bits & 0x3ff) << 13;
    f32::from_bits(sign | exponent << 23 | mantissa)
}

/// What packUnorm4x8 stores for one component.
fn unorm8(c: f32) -> u32 {
    (f64::from(c.clamp(0.0, 1.0)) * 255.0).round() as u32
}

/// packHalf2x16 and unpackHalf2x16 on values halves hold exactly;
/// packUnorm4x8 on values well away from a rounding tie.
fn packing(h: &mut Harness) -> Result<CaseResult, Stop> {
    let mut seq = Sequence::new(9);
    let mut halves = Vec::new();
    let mut operands = Vec::with_capacity(4 * N);
    for i in 0..N {
        let mut half = || {
            // Exponent 1..=30: normal and finite.
            let exponent = (seq.below(30) + 1) as u16;
            (seq.below(2) as u16) << 15 | exponent << 10 | seq.below(1024) as u16
        };
        let (hx, hy) = (half(), half());
        halves.push((hx, hy));
        let unorm = |k: u32| (k as f32 + 0.25) / 255.0;
        let (z, w) = match i % 8 {
            0 => (1.5, -0.5),
            _ => (unorm(seq.below(255)), unorm(seq.below(255))),
        };
        operands.extend([half_to_f32(hx), half_to_f32(hy), z, w]);
    }
    let want: Vec<u32> = operands
        .chunks(4)
        .zip(&halves)
        .flat_map(|(p, (hx, hy))| {
            let packed = [p[2], p[3], p[2] * 0.5, p[3] * 0.25]
                .iter()
                .enumerate()
                .fold(0, |acc, (i, c)| acc | unorm8(*c) << (8 * i));
            [
                u32::from(*hx) | u32::from(*hy) << 16,
                p[0].to_bits(),
                p[1].to_bits(),
                packed,
            ]
        })
        .collect();
    check_one_dispatch(h, &shaders::PACKING, &to_bytes(&operands), &want, GROUPS)
}

/// 64-bit add, subtract, multiply, shifts and comparisons.
fn int64(h: &mut Harness) -> Result<CaseResult, Stop> {
    if !h.caps().shader_int64 {
        return Err(Stop::NotSupported("shaderInt64".into()));
    }
    let mut seq = Sequence::new(10);
    let mut operands: Vec<u64> = (0..2 * N).map(|_| seq.next_u64()).collect();
    operands[..4].copy_from_slice(&[u64::MAX, 1, 0x8000_0000_0000_0000, 63]);
    let want: Vec<u64> = operands
        .chunks(2)
        .flat_map(|p| {
            let (a, b) = (p[0], p[1]);
            let s = (b & 63) as u32;
            [
                a.wrapping_add(b),
                a.wrapping_sub(b),
                a.wrapping_mul(b),
                a >> s,
                ((a as i64) >> s) as u64,
                u64::from(a < b)
                    | u64::from((a as i64) < (b as i64)) << 1
                    | (a & 0xffff_ffff) << 32,
            ]
        })
        .collect();
    check_one_dispatch(h, &shaders::INT64, &to_bytes(&operands), &want, GROUPS)
}

/// 64-bit division and remainder, unsigned and signed, on operands of every
/// magnitude and sign; never a zero divisor nor i64::MIN / -1, which SPIR-V
/// leaves undefined. GLSL leaves `%` of negative operands undefined too
/// (glslang emits OpSMod, which lavapipe computes as OpSRem), so the signed
/// remainder divides the operands shifted right by one, never negative; the
/// compiler's own tests hold the sign rules.
fn int64_division(h: &mut Harness) -> Result<CaseResult, Stop> {
    if !h.caps().shader_int64 {
        return Err(Stop::NotSupported("shaderInt64".into()));
    }
    let mut seq = Sequence::new(11);
    let mut operands = Vec::with_capacity(2 * N);
    for k in 0..N {
        let a = seq.next_u64() >> (k % 64);
        let b = seq.next_u64() >> (k * 7 % 64);
        let a = if k % 2 == 1 { a.wrapping_neg() } else { a };
        let b = if k % 4 >= 2 { b.wrapping_neg() } else { b };
        let b = if b < 2 || (a == i64::MIN as u64 && b == u64::MAX) {
            3
        } else {
            b
        };
        operands.extend_from_slice(&[a, b]);
    }
    operands[..8].copy_from_slice(&[u64::MAX, 1 << 63, 7, (-3i64) as u64, 5, 1 << 32, 0, 9]);
    let want: Vec<u64> = operands
        .chunks(2)
        .flat_map(|p| {
            let (a, b) = (p[0], p[1]);
            let (x, y) = (a as i64, b as i64);
            let (p, q) = ((a >> 1) as i64, (b >> 1) as i64);
            [a / b, a % b, x.wrapping_div(y) as u64, (p % q) as u64]
        })
        .collect();
    check_one_dispatch(
        h,
        &shaders::INT64_DIVISION,
        &to_bytes(&operands),
        &want,
        GROUPS,
    )
}

/// ldexp(x, e) on vec3 with normal x and results, but exponents e out to
/// +-247, beyond what one power of two holds: the result is x * 2^e exactly.
fn ldexp_range(h: &mut Harness) -> Result<CaseResult, Stop> {
    let mut seq = Sequence::new(12);
    let mut input = Vec::with_capacity(8 * N);
    let mut want = Vec::with_capacity(4 * N);
    for _ in 0..N {
        let mut xs = [0f32; 3];
        let mut es = [0i32; 3];
        for k in 0..3 {
            let from = seq.below(254) as i32 - 126;
            let to = seq.below(241) as i32 - 120;
            let mantissa = seq.next_u32() & 0x807f_ffff;
            xs[k] = f32::from_bits(mantissa | ((from + 127) as u32) << 23);
            es[k] = to - from;
        }
        input.extend(xs.iter().map(|x| x.to_bits()));
        input.push(0);
        input.extend(es.iter().map(|e| *e as u32));
        input.push(0);
        for k in 0..3 {
            want.push(xs[k] * 2f32.powi(es[k] / 2) * 2f32.powi(es[k] - es[k] / 2));
        }
        want.push(1.0);
    }
    check_one_dispatch(h, &shaders::LDEXP_RANGE, &to_bytes(&input), &want, GROUPS)
}
