//! The GLSL.std.450 extended instructions, expressed with IR operations. Transcendental
//! functions without an ir3 instruction are built from ones that have one (exp2, log2,
//! sin, cos, rsq, rcp) or from polynomial approximations.

use super::function::{err, Comp, Ids, Ptr, Translator, Val};
use super::operands::{id_at, lit_at};
use crate::error::{CompileError, Result};
use crate::ir::*;
use rspirv::dr;
use rspirv::spirv::GlslStd450Op as G;
use std::f64::consts::{FRAC_PI_2, LN_2, LOG2_E, PI};

impl Translator<'_> {
    fn fimm(&self, v: f64, like: &Comp) -> Comp {
        let size = like.sizes.first().copied().unwrap_or(BitSize::B32);
        Self::splat(Self::fconst(v, size), size, like.len())
    }

    /// atan(x) for each component: an odd minimax polynomial on [0, 1], with
    /// atan(x) = pi/2 - atan(1/x) above 1 and the sign restored at the end.
    fn atan(&mut self, x: &Comp) -> Result<Comp> {
        let a = self.map1(AluOp::FAbs, x)?;
        let one = self.fimm(1.0, x);
        let big = self.map2(AluOp::FLt, &one, &a)?;
        let inv = self.map1(AluOp::FRcp, &a)?;
        let u = self.select_c(&big, &inv, &a)?;
        let u2 = self.map2(AluOp::FMul, &u, &u)?;
        // Coefficients of the degree-11 odd approximation (max error about 1e-5 rad).
        let coeffs = [
            -0.011_721_20,
            0.052_653_32,
            -0.116_432_87,
            0.193_543_46,
            -0.332_623_47,
            0.999_977_26,
        ];
        let mut p = self.fimm(coeffs[0], x);
        for c in &coeffs[1..] {
            let k = self.fimm(*c, x);
            p = self.map3(AluOp::FFma, &p, &u2, &k)?;
        }
        let p = self.map2(AluOp::FMul, &p, &u)?;
        let half_pi = self.fimm(FRAC_PI_2, x);
        let reflected = self.map2(AluOp::FSub, &half_pi, &p)?;
        let r = self.select_c(&big, &reflected, &p)?;
        let zero = self.fimm(0.0, x);
        let neg = self.map2(AluOp::FLt, x, &zero)?;
        let nr = self.map1(AluOp::FNeg, &r)?;
        self.select_c(&neg, &nr, &r)
    }

    fn atan2(&mut self, y: &Comp, x: &Comp) -> Result<Comp> {
        let q = self.map2(AluOp::FDiv, y, x)?;
        let r = self.atan(&q)?;
        // Left half-plane: add or subtract pi according to the sign of y.
        let zero = self.fimm(0.0, x);
        let x_neg = self.map2(AluOp::FLt, x, &zero)?;
        let y_neg = self.map2(AluOp::FLt, y, &zero)?;
        let pi = self.fimm(PI, x);
        let npi = self.fimm(-PI, x);
        let adj = self.select_c(&y_neg, &npi, &pi)?;
        let shifted = self.map2(AluOp::FAdd, &r, &adj)?;
        let r = self.select_c(&x_neg, &shifted, &r)?;
        // x == 0: +-pi/2 by the sign of y (atan of +-inf already gives that, but 0/0 is NaN).
        let x_zero = self.map2(AluOp::FEq, x, &zero)?;
        let hp = self.fimm(FRAC_PI_2, x);
        let nhp = self.fimm(-FRAC_PI_2, x);
        let vertical = self.select_c(&y_neg, &nhp, &hp)?;
        self.select_c(&x_zero, &vertical, &r)
    }

    fn exp_base(&mut self, x: &Comp, log2_base: f64) -> Result<Comp> {
        let k = self.fimm(log2_base, x);
        let t = self.map2(AluOp::FMul, x, &k)?;
        self.map1(AluOp::FExp2, &t)
    }

    fn clamp_f(&mut self, x: &Comp, lo: &Comp, hi: &Comp) -> Result<Comp> {
        let t = self.map2(AluOp::FMax, x, lo)?;
        self.map2(AluOp::FMin, &t, hi)
    }

    /// `x * 2^e`, correctly rounded, for every float of `size` and every 32-bit `e`. A
    /// single power of two overflows or underflows long before the product does (a
    /// subnormal x with e above 127: dEQP's ldexp_subnormals got infinities from
    /// x * exp2(e)), so e, clamped to three times the normal exponent range (beyond it
    /// every finite product is 0 or infinite), is split into e1, the part within that
    /// range, then e2 and e3 likewise from the rest; x is multiplied by 2^e3, 2^e2 and
    /// last 2^e1, each power built from its exponent field. Every factor scales the
    /// same way, so only the last product can round: an earlier one can only become
    /// subnormal when the result is far below the smallest subnormal anyway.
    fn ldexp(&mut self, x: Src, size: BitSize, e: Src) -> Result<Src> {
        // (exponent bias, mantissa bits): IEEE binary32 and binary16.
        let (bias, mantissa) = match size {
            BitSize::B16 => (15i64, 10u64),
            BitSize::B32 => (127, 23),
            other => {
                return Err(CompileError::new(format!(
                    "ldexp of {}-bit floats is not supported",
                    other.bits()
                )))
            }
        };
        let (lo, hi) = (1 - bias, bias);
        let int = |v: i64| Src::Imm(v as u64 & 0xffff_ffff);
        let clamp = |t: &mut Self, v: Src, lo: i64, hi: i64| -> Result<Src> {
            let v = t.alu(AluOp::SMax, BitSize::B32, &[v, int(lo)])?;
            t.alu(AluOp::SMin, BitSize::B32, &[v, int(hi)])
        };
        let all = clamp(self, e, 3 * lo, 3 * hi)?;
        let e1 = clamp(self, all, lo, hi)?;
        let rest = self.alu(AluOp::ISub, BitSize::B32, &[all, e1])?;
        let e2 = clamp(self, rest, lo, hi)?;
        let e3 = self.alu(AluOp::ISub, BitSize::B32, &[rest, e2])?;
        let mut product = x;
        for k in [e3, e2, e1] {
            let field = self.alu(AluOp::IAdd, BitSize::B32, &[k, int(bias)])?;
            let bits = self.alu(AluOp::Shl, BitSize::B32, &[field, Src::Imm(mantissa)])?;
            let power = self.convert(ConvKind::I2I { signed: false }, BitSize::B32, size, bits)?;
            product = self.alu(AluOp::FMul, size, &[product, power])?;
        }
        Ok(product)
    }

    fn determinant(&mut self, m: &[Src], n: usize, size: BitSize) -> Result<Src> {
        // Cofactor expansion along the first column; m is column-major n x n.
        if n == 1 {
            return Ok(m[0]);
        }
        let mut acc: Option<Src> = None;
        for row in 0..n {
            let mut minor = Vec::new();
            for col in 1..n {
                for r in 0..n {
                    if r != row {
                        minor.push(m[col * n + r]);
                    }
                }
            }
            let d = self.determinant(&minor, n - 1, size)?;
            let term = self.alu(AluOp::FMul, size, &[m[row], d])?;
            acc = Some(match acc {
                None => term,
                Some(a) if row % 2 == 1 => self.alu(AluOp::FSub, size, &[a, term])?,
                Some(a) => self.alu(AluOp::FAdd, size, &[a, term])?,
            });
        }
        Ok(acc.unwrap_or(Src::Imm(0)))
    }

    pub(super) fn glsl_std450(&mut self, ids: &Ids, inst: &dr::Instruction) -> Result<Comp> {
        use AluOp as A;
        let number = lit_at(inst, 1)?;
        let g = G::from_u32(number).ok_or_else(|| {
            err(
                inst,
                format!("GLSL.std.450 instruction {number} does not exist"),
            )
        })?;
        let sizes = self.result_sizes(inst)?;
        let arg = |t: &Self, i: usize| t.comp(ids, inst, 2 + i);
        let un = |t: &mut Self, a: AluOp| -> Result<Comp> {
            let x = arg(t, 0)?;
            t.map1(a, &x)
        };
        let bin = |t: &mut Self, a: AluOp| -> Result<Comp> {
            let (x, y) = (arg(t, 0)?, arg(t, 1)?);
            t.map2(a, &x, &y)
        };
        let r = match g {
            G::Round | G::RoundEven => un(self, A::FRoundEven)?,
            G::Trunc => un(self, A::FTrunc)?,
            G::FAbs => un(self, A::FAbs)?,
            G::SAbs => un(self, A::IAbs)?,
            G::FSign => un(self, A::FSign)?,
            G::SSign => un(self, A::ISign)?,
            G::Floor => un(self, A::FFloor)?,
            G::Ceil => un(self, A::FCeil)?,
            G::Fract => un(self, A::FFract)?,
            G::Radians | G::Degrees => {
                let x = arg(self, 0)?;
                let k = self.fimm(
                    if g == G::Radians {
                        PI / 180.0
                    } else {
                        180.0 / PI
                    },
                    &x,
                );
                self.map2(A::FMul, &x, &k)?
            }
            G::Sin => un(self, A::FSin)?,
            G::Cos => un(self, A::FCos)?,
            G::Tan => {
                let x = arg(self, 0)?;
                let s = self.map1(A::FSin, &x)?;
                let c = self.map1(A::FCos, &x)?;
                self.map2(A::FDiv, &s, &c)?
            }
            G::Atan => {
                let x = arg(self, 0)?;
                self.atan(&x)?
            }
            G::Atan2 => {
                let (y, x) = (arg(self, 0)?, arg(self, 1)?);
                self.atan2(&y, &x)?
            }
            G::Asin | G::Acos => {
                // asin x = atan2(x, sqrt(1 - x^2)); acos x = atan2(sqrt(1 - x^2), x).
                let x = arg(self, 0)?;
                let one = self.fimm(1.0, &x);
                let x2 = self.map2(A::FMul, &x, &x)?;
                let d = self.map2(A::FSub, &one, &x2)?;
                let s = self.map1(A::FSqrt, &d)?;
                if g == G::Asin {
                    self.atan2(&x, &s)?
                } else {
                    self.atan2(&s, &x)?
                }
            }
            G::Sinh | G::Cosh | G::Tanh => {
                let x = arg(self, 0)?;
                let e = self.exp_base(&x, LOG2_E)?;
                let ne = self.map1(A::FRcp, &e)?;
                let half = self.fimm(0.5, &x);
                match g {
                    G::Sinh => {
                        let d = self.map2(A::FSub, &e, &ne)?;
                        self.map2(A::FMul, &d, &half)?
                    }
                    G::Cosh => {
                        let s = self.map2(A::FAdd, &e, &ne)?;
                        self.map2(A::FMul, &s, &half)?
                    }
                    _ => {
                        // (e^2x - 1) / (e^2x + 1), with x clamped so e^2x stays finite.
                        let lo = self.fimm(-10.0, &x);
                        let hi = self.fimm(10.0, &x);
                        let xc = self.clamp_f(&x, &lo, &hi)?;
                        let e2 = self.exp_base(&xc, 2.0 * LOG2_E)?;
                        let one = self.fimm(1.0, &x);
                        let n = self.map2(A::FSub, &e2, &one)?;
                        let d = self.map2(A::FAdd, &e2, &one)?;
                        self.map2(A::FDiv, &n, &d)?
                    }
                }
            }
            G::Asinh | G::Acosh | G::Atanh => {
                let x = arg(self, 0)?;
                let one = self.fimm(1.0, &x);
                let ln2 = self.fimm(LN_2, &x);
                match g {
                    G::Asinh => {
                        // sign(x) * ln(|x| + sqrt(x^2 + 1))
                        let a = self.map1(A::FAbs, &x)?;
                        let x2 = self.map2(A::FMul, &x, &x)?;
                        let t = self.map2(A::FAdd, &x2, &one)?;
                        let s = self.map1(A::FSqrt, &t)?;
                        let t = self.map2(A::FAdd, &a, &s)?;
                        let l = self.map1(A::FLog2, &t)?;
                        let l = self.map2(A::FMul, &l, &ln2)?;
                        let sg = self.map1(A::FSign, &x)?;
                        self.map2(A::FMul, &l, &sg)?
                    }
                    G::Acosh => {
                        let x2 = self.map2(A::FMul, &x, &x)?;
                        let t = self.map2(A::FSub, &x2, &one)?;
                        let s = self.map1(A::FSqrt, &t)?;
                        let t = self.map2(A::FAdd, &x, &s)?;
                        let l = self.map1(A::FLog2, &t)?;
                        self.map2(A::FMul, &l, &ln2)?
                    }
                    _ => {
                        let n = self.map2(A::FAdd, &one, &x)?;
                        let d = self.map2(A::FSub, &one, &x)?;
                        let q = self.map2(A::FDiv, &n, &d)?;
                        let l = self.map1(A::FLog2, &q)?;
                        let k = self.fimm(0.5 * LN_2, &x);
                        self.map2(A::FMul, &l, &k)?
                    }
                }
            }
            G::Pow => {
                let (x, y) = (arg(self, 0)?, arg(self, 1)?);
                let l = self.map1(A::FLog2, &x)?;
                let t = self.map2(A::FMul, &y, &l)?;
                self.map1(A::FExp2, &t)?
            }
            G::Exp => {
                let x = arg(self, 0)?;
                self.exp_base(&x, LOG2_E)?
            }
            G::Log => {
                let x = arg(self, 0)?;
                let l = self.map1(A::FLog2, &x)?;
                let k = self.fimm(LN_2, &x);
                self.map2(A::FMul, &l, &k)?
            }
            G::Exp2 => un(self, A::FExp2)?,
            G::Log2 => un(self, A::FLog2)?,
            G::Sqrt => un(self, A::FSqrt)?,
            G::InverseSqrt => un(self, A::FRsq)?,
            G::Determinant => {
                let m = arg(self, 0)?;
                let n = (m.len() as f64).sqrt() as usize;
                if n * n != m.len() || n == 0 {
                    return Err(err(inst, "operand is not a square matrix"));
                }
                let d = self.determinant(&m.srcs, n, m.sizes[0])?;
                Comp::new(vec![d], vec![m.sizes[0]])
            }
            G::Modf => {
                let x = arg(self, 0)?;
                let p = self.ext_ptr(ids, inst, 1)?;
                let whole = self.map1(A::FTrunc, &x)?;
                self.store_to(&p, &whole).map_err(|e| err(inst, e))?;
                self.map2(A::FSub, &x, &whole)?
            }
            G::ModfStruct => {
                let x = arg(self, 0)?;
                let whole = self.map1(A::FTrunc, &x)?;
                let fract = self.map2(A::FSub, &x, &whole)?;
                Comp::new(
                    [fract.srcs, whole.srcs].concat(),
                    [fract.sizes, whole.sizes].concat(),
                )
            }
            G::FMin | G::NMin => bin(self, A::FMin)?,
            G::FMax | G::NMax => bin(self, A::FMax)?,
            G::UMin => bin(self, A::UMin)?,
            G::UMax => bin(self, A::UMax)?,
            G::SMin => bin(self, A::SMin)?,
            G::SMax => bin(self, A::SMax)?,
            G::FClamp | G::NClamp | G::UClamp | G::SClamp => {
                let (x, lo, hi) = (arg(self, 0)?, arg(self, 1)?, arg(self, 2)?);
                let (mx, mn) = match g {
                    G::UClamp => (A::UMax, A::UMin),
                    G::SClamp => (A::SMax, A::SMin),
                    _ => (A::FMax, A::FMin),
                };
                let t = self.map2(mx, &x, &lo)?;
                self.map2(mn, &t, &hi)?
            }
            G::FMix => {
                // x * (1 - a) + y * a: exactly x at a = 0 and y at a = 1.
                let (x, y, a) = (arg(self, 0)?, arg(self, 1)?, arg(self, 2)?);
                let one = self.fimm(1.0, &x);
                let a = if a.len() == 1 && x.len() > 1 {
                    Self::splat(a.srcs[0], a.sizes[0], x.len())
                } else {
                    a
                };
                let ia = self.map2(A::FSub, &one, &a)?;
                let ya = self.map2(A::FMul, &y, &a)?;
                self.map3(A::FFma, &x, &ia, &ya)?
            }
            G::Step => {
                let (edge, x) = (arg(self, 0)?, arg(self, 1)?);
                let edge = if edge.len() == 1 && x.len() > 1 {
                    Self::splat(edge.srcs[0], edge.sizes[0], x.len())
                } else {
                    edge
                };
                let lt = self.map2(A::FLt, &x, &edge)?;
                let zero = self.fimm(0.0, &x);
                let one = self.fimm(1.0, &x);
                self.select_c(&lt, &zero, &one)?
            }
            G::SmoothStep => {
                let (e0, e1, x) = (arg(self, 0)?, arg(self, 1)?, arg(self, 2)?);
                let widen = |c: Comp| {
                    if c.len() == 1 && x.len() > 1 {
                        Self::splat(c.srcs[0], c.sizes[0], x.len())
                    } else {
                        c
                    }
                };
                let (e0, e1) = (widen(e0), widen(e1));
                let n = self.map2(A::FSub, &x, &e0)?;
                let d = self.map2(A::FSub, &e1, &e0)?;
                let t = self.map2(A::FDiv, &n, &d)?;
                let t = self.map1(A::FSat, &t)?;
                let three = self.fimm(3.0, &x);
                let m2 = self.fimm(-2.0, &x);
                let k = self.map3(A::FFma, &m2, &t, &three)?;
                let t2 = self.map2(A::FMul, &t, &t)?;
                self.map2(A::FMul, &t2, &k)?
            }
            G::Fma => {
                let (a, b, c) = (arg(self, 0)?, arg(self, 1)?, arg(self, 2)?);
                self.map3(A::FFma, &a, &b, &c)?
            }
            G::Ldexp => {
                let (x, e) = (arg(self, 0)?, arg(self, 1)?);
                let mut srcs = Vec::new();
                for i in 0..x.len() {
                    let e = self.index32(e.srcs[i], e.sizes[i])?;
                    srcs.push(self.ldexp(x.srcs[i], x.sizes[i], e)?);
                }
                Comp::new(srcs, x.sizes.clone())
            }
            G::Frexp | G::FrexpStruct => {
                let x = arg(self, 0)?;
                if x.sizes.iter().any(|s| *s != BitSize::B32) {
                    return Err(err(inst, "frexp is only supported on 32-bit floats"));
                }
                let mut mant = Vec::new();
                let mut exps = Vec::new();
                for s in &x.srcs {
                    // Exponent field minus 126 and the mantissa re-biased into [0.5, 1);
                    // zero stays zero with exponent 0. Subnormals are flushed, as ir3 does.
                    let e = self.alu(
                        A::UBitfieldExtract,
                        BitSize::B32,
                        &[*s, Src::Imm(23), Src::Imm(8)],
                    )?;
                    let is_zero = self.alu(A::IEq, BitSize::B32, &[e, Src::Imm(0)])?;
                    let e = self.alu(A::ISub, BitSize::B32, &[e, Src::Imm(126)])?;
                    let m = self.alu(A::And, BitSize::B32, &[*s, Src::Imm(0x807f_ffff)])?;
                    let m = self.alu(A::Or, BitSize::B32, &[m, Src::Imm(0x3f00_0000)])?;
                    let z = self.alu(A::And, BitSize::B32, &[*s, Src::Imm(0x8000_0000)])?;
                    mant.push(self.alu(A::Select, BitSize::B32, &[is_zero, z, m])?);
                    exps.push(self.alu(A::Select, BitSize::B32, &[is_zero, Src::Imm(0), e])?);
                }
                let n = x.len();
                if g == G::Frexp {
                    let p = self.ext_ptr(ids, inst, 1)?;
                    self.store_to(&p, &Comp::new(exps, vec![BitSize::B32; n]))
                        .map_err(|e| err(inst, e))?;
                    Comp::new(mant, x.sizes.clone())
                } else {
                    Comp::new([mant, exps].concat(), vec![BitSize::B32; 2 * n])
                }
            }
            G::PackHalf2x16 => {
                let v = arg(self, 0)?;
                let lo = self.convert(ConvKind::F2F, BitSize::B32, BitSize::B16, v.srcs[0])?;
                let hi = self.convert(ConvKind::F2F, BitSize::B32, BitSize::B16, v.srcs[1])?;
                Comp::new(
                    vec![self.alu(A::Pack32, BitSize::B16, &[lo, hi])?],
                    vec![BitSize::B32],
                )
            }
            G::UnpackHalf2x16 => {
                let v = arg(self, 0)?;
                let mut out = Vec::new();
                for a in [A::Unpack32Lo, A::Unpack32Hi] {
                    let h = self.alu(a, BitSize::B32, &[v.srcs[0]])?;
                    out.push(self.convert(ConvKind::F2F, BitSize::B16, BitSize::B32, h)?);
                }
                Comp::new(out, vec![BitSize::B32; 2])
            }
            G::PackUnorm4x8 | G::PackSnorm4x8 | G::PackUnorm2x16 | G::PackSnorm2x16 => {
                let v = arg(self, 0)?;
                let (bits, signed) = match g {
                    G::PackUnorm4x8 => (8, false),
                    G::PackSnorm4x8 => (8, true),
                    G::PackUnorm2x16 => (16, false),
                    _ => (16, true),
                };
                let scale = ((1u64 << (bits - signed as u32)) - 1) as f64;
                let mut acc = Src::Imm(0);
                for (i, s) in v.srcs.iter().enumerate() {
                    let lo = Self::fconst(if signed { -1.0 } else { 0.0 }, BitSize::B32);
                    let c = self.alu(A::FMax, BitSize::B32, &[*s, lo])?;
                    let c =
                        self.alu(A::FMin, BitSize::B32, &[c, Self::fconst(1.0, BitSize::B32)])?;
                    let c = self.alu(
                        A::FMul,
                        BitSize::B32,
                        &[c, Self::fconst(scale, BitSize::B32)],
                    )?;
                    let c = self.alu(A::FRoundEven, BitSize::B32, &[c])?;
                    let n =
                        self.convert(ConvKind::F2I { signed }, BitSize::B32, BitSize::B32, c)?;
                    let n = self.alu(A::And, BitSize::B32, &[n, Src::Imm((1 << bits) - 1)])?;
                    let n =
                        self.alu(A::Shl, BitSize::B32, &[n, Src::Imm(i as u64 * bits as u64)])?;
                    acc = self.alu(A::Or, BitSize::B32, &[acc, n])?;
                }
                Comp::new(vec![acc], vec![BitSize::B32])
            }
            G::UnpackUnorm4x8 | G::UnpackSnorm4x8 | G::UnpackUnorm2x16 | G::UnpackSnorm2x16 => {
                let v = arg(self, 0)?;
                let (bits, signed) = match g {
                    G::UnpackUnorm4x8 => (8u64, false),
                    G::UnpackSnorm4x8 => (8, true),
                    G::UnpackUnorm2x16 => (16, false),
                    _ => (16, true),
                };
                let scale = ((1u64 << (bits - signed as u64)) - 1) as f64;
                let mut out = Vec::new();
                for i in 0..32 / bits {
                    let e = if signed {
                        A::SBitfieldExtract
                    } else {
                        A::UBitfieldExtract
                    };
                    let f = self.alu(
                        e,
                        BitSize::B32,
                        &[v.srcs[0], Src::Imm(i * bits), Src::Imm(bits)],
                    )?;
                    let f =
                        self.convert(ConvKind::I2F { signed }, BitSize::B32, BitSize::B32, f)?;
                    let f = self.alu(
                        A::FDiv,
                        BitSize::B32,
                        &[f, Self::fconst(scale, BitSize::B32)],
                    )?;
                    let f = self.alu(
                        A::FMax,
                        BitSize::B32,
                        &[f, Self::fconst(-1.0, BitSize::B32)],
                    )?;
                    out.push(f);
                }
                let n = out.len();
                Comp::new(out, vec![BitSize::B32; n])
            }
            G::Length => {
                let x = arg(self, 0)?;
                let d = self.dot(&x, &x)?;
                let s = self.alu(A::FSqrt, x.sizes[0], &[d])?;
                Comp::new(vec![s], vec![x.sizes[0]])
            }
            G::Distance => {
                let (a, b) = (arg(self, 0)?, arg(self, 1)?);
                let x = self.map2(A::FSub, &a, &b)?;
                let d = self.dot(&x, &x)?;
                let s = self.alu(A::FSqrt, x.sizes[0], &[d])?;
                Comp::new(vec![s], vec![x.sizes[0]])
            }
            G::Cross => {
                let (a, b) = (arg(self, 0)?, arg(self, 1)?);
                if a.len() != 3 || b.len() != 3 {
                    return Err(err(inst, "cross needs 3-component vectors"));
                }
                let z = a.sizes[0];
                let mut out = Vec::new();
                for i in 0..3 {
                    let (j, k) = ((i + 1) % 3, (i + 2) % 3);
                    let p = self.alu(A::FMul, z, &[a.srcs[k], b.srcs[j]])?;
                    let np = self.alu(A::FNeg, z, &[p])?;
                    out.push(self.alu(A::FFma, z, &[a.srcs[j], b.srcs[k], np])?);
                }
                Comp::new(out, a.sizes.clone())
            }
            G::Normalize => {
                let x = arg(self, 0)?;
                let d = self.dot(&x, &x)?;
                let r = self.alu(A::FRsq, x.sizes[0], &[d])?;
                let rs = Self::splat(r, x.sizes[0], x.len());
                self.map2(A::FMul, &x, &rs)?
            }
            G::FaceForward => {
                let (n, i, nref) = (arg(self, 0)?, arg(self, 1)?, arg(self, 2)?);
                let d = self.dot(&nref, &i)?;
                let z = n.sizes[0];
                let neg = self.alu(A::FLt, z, &[d, Self::fconst(0.0, z)])?;
                let nn = self.map1(A::FNeg, &n)?;
                self.select_c(&Comp::new(vec![neg], vec![BitSize::B1]), &n, &nn)?
            }
            G::Reflect => {
                let (i, n) = (arg(self, 0)?, arg(self, 1)?);
                let z = i.sizes[0];
                let d = self.dot(&n, &i)?;
                let d2 = self.alu(A::FMul, z, &[d, Self::fconst(-2.0, z)])?;
                let k = Self::splat(d2, z, i.len());
                self.map3(A::FFma, &k, &n, &i)?
            }
            G::Refract => {
                let (i, n, eta) = (arg(self, 0)?, arg(self, 1)?, arg(self, 2)?);
                let z = i.sizes[0];
                let e = eta.srcs[0];
                let d = self.dot(&n, &i)?;
                let one = Self::fconst(1.0, z);
                let dd = self.alu(A::FMul, z, &[d, d])?;
                let t = self.alu(A::FSub, z, &[one, dd])?;
                let ee = self.alu(A::FMul, z, &[e, e])?;
                let t = self.alu(A::FMul, z, &[ee, t])?;
                let k = self.alu(A::FSub, z, &[one, t])?;
                let tir = self.alu(A::FLt, z, &[k, Self::fconst(0.0, z)])?;
                let sk = self.alu(A::FSqrt, z, &[k])?;
                let m = self.alu(A::FFma, z, &[e, d, sk])?;
                let mut out = Vec::new();
                for c in 0..i.len() {
                    let a = self.alu(A::FMul, z, &[e, i.srcs[c]])?;
                    let b = self.alu(A::FMul, z, &[m, n.srcs[c]])?;
                    let r = self.alu(A::FSub, z, &[a, b])?;
                    out.push(self.alu(A::Select, z, &[tir, Self::fconst(0.0, z), r])?);
                }
                Comp::new(out, i.sizes.clone())
            }
            G::FindILsb | G::FindSMsb | G::FindUMsb => {
                let x = arg(self, 0)?;
                let a = match g {
                    G::FindILsb => A::FindLsb,
                    G::FindSMsb => A::SFindMsb,
                    _ => A::UFindMsb,
                };
                let r = self.map1(a, &x)?;
                let mut out = Vec::new();
                for (s, to) in r.srcs.iter().zip(&sizes) {
                    out.push(self.convert(
                        ConvKind::I2I { signed: true },
                        BitSize::B32,
                        *to,
                        *s,
                    )?);
                }
                Comp::new(out, sizes.clone())
            }
            G::IMix => return Err(err(inst, "IMix does not exist in GLSL.std.450 for Vulkan")),
            other => {
                return Err(err(
                    inst,
                    format!("GLSL.std.450 {other:?} is not supported"),
                ))
            }
        };
        if r.sizes != sizes {
            return Err(err(inst, "result does not match its type"));
        }
        Ok(r)
    }

    fn ext_ptr(&self, ids: &Ids, inst: &dr::Instruction, i: usize) -> Result<Ptr> {
        let id = id_at(inst, 2 + i)?;
        match self.get(ids, id) {
            Some(Val::Ptr(p)) => Ok(p),
            _ => Err(err(inst, format!("%{id} is not a pointer"))),
        }
    }
}
