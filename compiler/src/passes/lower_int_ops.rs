//! Integer operations ir3 has no instruction for, built from ones it has.
//!
//! - Division and remainder: ir3 has no integer divide. The quotient comes from a
//!   32-bit fixed-point reciprocal of the divisor, estimated with the float `rcp`, refined
//!   by one Newton-Raphson step, multiplied with the dividend (high half of the 64-bit
//!   product), then corrected twice by comparing the remainder with the divisor. The two
//!   corrections cover the estimate's error (the well-known reciprocal method of GPU
//!   compilers). Signed forms divide magnitudes and fix the signs.
//! - `umul_high`/`imul_high`: from 16x16-bit products (ir3's `mull.u`), summing the
//!   middle terms with their carries.
//! - Bit-field extract and insert: shifts and masks, with a zero-width field special-cased
//!   because a shift by the full width wraps to a shift by zero.
//! - `isign`: two compares.
//!
//! 16-bit operations are done on zero- or sign-extended 32-bit values and truncated.

use crate::ir::*;

struct B<'a> {
    shader: &'a mut Shader,
    out: Vec<Instr>,
}

impl B<'_> {
    fn op(&mut self, op: AluOp, size: BitSize, srcs: &[Src]) -> Src {
        let d = self.shader.new_value(op.result_size(size));
        self.out.push(Instr {
            dst: Some(d),
            op: Op::alu(op, size, srcs),
        });
        d.into()
    }
    fn a(&mut self, op: AluOp, srcs: &[Src]) -> Src {
        self.op(op, BitSize::B32, srcs)
    }
    fn conv(&mut self, kind: ConvKind, from: BitSize, to: BitSize, src: Src) -> Src {
        let d = self.shader.new_value(to);
        self.out.push(Instr {
            dst: Some(d),
            op: Op::Convert(Convert {
                kind,
                from,
                to,
                src,
            }),
        });
        d.into()
    }
    fn select(&mut self, c: Src, x: Src, y: Src) -> Src {
        self.a(AluOp::Select, &[c, x, y])
    }

    /// (a & 0xffff) * (b & 0xffff), the product ir3's mull.u computes.
    fn mul16(&mut self, a: Src, b: Src) -> Src {
        let a = self.a(AluOp::And, &[a, Src::Imm(0xffff)]);
        let b = self.a(AluOp::And, &[b, Src::Imm(0xffff)]);
        self.a(AluOp::IMul, &[a, b])
    }

    fn umul_high(&mut self, x: Src, y: Src) -> Src {
        use AluOp::*;
        let xh = self.a(UShr, &[x, Src::Imm(16)]);
        let yh = self.a(UShr, &[y, Src::Imm(16)]);
        let lo = self.mul16(x, y);
        let m1 = self.mul16(xh, y);
        let m2 = self.mul16(x, yh);
        let hh = self.mul16(xh, yh);
        // Bits 16..47 of the product: (lo >> 16) + low halves of the middle terms.
        let lo_hi = self.a(UShr, &[lo, Src::Imm(16)]);
        let m1_lo = self.a(And, &[m1, Src::Imm(0xffff)]);
        let m2_lo = self.a(And, &[m2, Src::Imm(0xffff)]);
        let mid = self.a(IAdd, &[lo_hi, m1_lo]);
        let mid = self.a(IAdd, &[mid, m2_lo]);
        let carry = self.a(UShr, &[mid, Src::Imm(16)]);
        let m1_hi = self.a(UShr, &[m1, Src::Imm(16)]);
        let m2_hi = self.a(UShr, &[m2, Src::Imm(16)]);
        let h = self.a(IAdd, &[hh, m1_hi]);
        let h = self.a(IAdd, &[h, m2_hi]);
        self.a(IAdd, &[h, carry])
    }

    fn imul_high(&mut self, x: Src, y: Src) -> Src {
        // Signed high half = unsigned high half - (x < 0 ? y : 0) - (y < 0 ? x : 0).
        let u = self.umul_high(x, y);
        let xn = self.a(AluOp::SLt, &[x, Src::Imm(0)]);
        let yn = self.a(AluOp::SLt, &[y, Src::Imm(0)]);
        let cx = self.select(xn, y, Src::Imm(0));
        let cy = self.select(yn, x, Src::Imm(0));
        let t = self.a(AluOp::ISub, &[u, cx]);
        self.a(AluOp::ISub, &[t, cy])
    }

    /// (quotient, remainder) of unsigned 32-bit division; d != 0 is the caller's duty
    /// (division by zero is undefined in SPIR-V).
    fn udivmod(&mut self, n: Src, d: Src) -> (Src, Src) {
        use AluOp::*;
        // Fixed-point reciprocal: 2^32 / d, from the float reciprocal scaled just under
        // 2^32 so that it never overflows.
        let df = self.conv(
            ConvKind::I2F { signed: false },
            BitSize::B32,
            BitSize::B32,
            d,
        );
        let r = self.a(FRcp, &[df]);
        let r = self.a(FMul, &[r, Src::Imm(4_294_966_784f32.to_bits() as u64)]);
        let rcp = self.conv(
            ConvKind::F2I { signed: false },
            BitSize::B32,
            BitSize::B32,
            r,
        );
        // One Newton-Raphson step: rcp += umul_high(rcp, -d * rcp).
        let nd = self.a(INeg, &[d]);
        let e = self.a(IMul, &[nd, rcp]);
        let corr = self.umul_high(rcp, e);
        let rcp = self.a(IAdd, &[rcp, corr]);
        let mut q = self.umul_high(n, rcp);
        let qd = self.a(IMul, &[q, d]);
        let mut rem = self.a(ISub, &[n, qd]);
        for _ in 0..2 {
            let ge = self.a(ULe, &[d, rem]);
            let q1 = self.a(IAdd, &[q, Src::Imm(1)]);
            let r1 = self.a(ISub, &[rem, d]);
            q = self.select(ge, q1, q);
            rem = self.select(ge, r1, rem);
        }
        (q, rem)
    }

    fn iabs(&mut self, x: Src) -> Src {
        self.a(AluOp::IAbs, &[x])
    }

    fn sdivmod(&mut self, op: AluOp, n: Src, d: Src) -> Src {
        use AluOp::*;
        let (an, ad) = (self.iabs(n), self.iabs(d));
        let (q, r) = self.udivmod(an, ad);
        match op {
            SDiv => {
                let sx = self.a(Xor, &[n, d]);
                let neg = self.a(SLt, &[sx, Src::Imm(0)]);
                let nq = self.a(INeg, &[q]);
                self.select(neg, nq, q)
            }
            _ => {
                // Remainder has the sign of the dividend; modulo that of the divisor.
                let nneg = self.a(SLt, &[n, Src::Imm(0)]);
                let nr = self.a(INeg, &[r]);
                let rem = self.select(nneg, nr, r);
                if op == SRem {
                    return rem;
                }
                let nonzero = self.a(INe, &[rem, Src::Imm(0)]);
                let rneg = self.a(SLt, &[rem, Src::Imm(0)]);
                let dneg = self.a(SLt, &[d, Src::Imm(0)]);
                let differ = self.op(Xor, BitSize::B1, &[rneg, dneg]);
                let fix = self.op(And, BitSize::B1, &[nonzero, differ]);
                let adj = self.a(IAdd, &[rem, d]);
                self.select(fix, adj, rem)
            }
        }
    }

    fn bitfield(&mut self, a: &Alu) -> Src {
        use AluOp::*;
        let bits = a.size.bits() as u64;
        let size = a.size;
        let s = &a.srcs;
        match a.op {
            UBitfieldExtract | SBitfieldExtract => {
                // (x << (bits - off - count)) >> (bits - count), 0 for a zero count.
                let (x, off, count) = (s[0], s[1], s[2]);
                let t = self.a(IAdd, &[off, count]);
                let left = self.a(ISub, &[Src::Imm(bits), t]);
                let right = self.a(ISub, &[Src::Imm(bits), count]);
                let sh = self.op(Shl, size, &[x, left]);
                let op = if a.op == UBitfieldExtract { UShr } else { SShr };
                let v = self.op(op, size, &[sh, right]);
                let zero = self.a(IEq, &[count, Src::Imm(0)]);
                self.op(Select, size, &[zero, Src::Imm(0), v])
            }
            _ => {
                // mask = (~0 >> (bits - count)) << off, none for a zero count.
                let (base, ins, off, count) = (s[0], s[1], s[2], s[3]);
                let right = self.a(ISub, &[Src::Imm(bits), count]);
                let ones = self.op(UShr, size, &[Src::Imm(size.mask()), right]);
                let mask = self.op(Shl, size, &[ones, off]);
                let zero = self.a(IEq, &[count, Src::Imm(0)]);
                let mask = self.op(Select, size, &[zero, Src::Imm(0), mask]);
                let keep = self.op(Not, size, &[mask]);
                let kept = self.op(And, size, &[base, keep]);
                let moved = self.op(Shl, size, &[ins, off]);
                let moved = self.op(And, size, &[moved, mask]);
                self.op(Or, size, &[kept, moved])
            }
        }
    }

    /// Lowers `a` if ir3 lacks it; returns the value replacing its result.
    fn lower(&mut self, a: &Alu) -> Option<Src> {
        use AluOp::*;
        let s = &a.srcs;
        let half = a.size == BitSize::B16;
        match a.op {
            UDiv | UMod | SDiv | SRem | SMod => {
                let signed = matches!(a.op, SDiv | SRem | SMod);
                let (n, d) = if half {
                    let k = ConvKind::I2I { signed };
                    (
                        self.conv(k, BitSize::B16, BitSize::B32, s[0]),
                        self.conv(k, BitSize::B16, BitSize::B32, s[1]),
                    )
                } else {
                    (s[0], s[1])
                };
                let r = match a.op {
                    UDiv => self.udivmod(n, d).0,
                    UMod => self.udivmod(n, d).1,
                    op => self.sdivmod(op, n, d),
                };
                Some(if half {
                    self.conv(
                        ConvKind::I2I { signed: false },
                        BitSize::B32,
                        BitSize::B16,
                        r,
                    )
                } else {
                    r
                })
            }
            UMulHigh if !half => Some(self.umul_high(s[0], s[1])),
            IMulHigh if !half => Some(self.imul_high(s[0], s[1])),
            UMulHigh | IMulHigh => {
                // 16-bit: the full product fits 32 bits.
                let k = ConvKind::I2I {
                    signed: a.op == IMulHigh,
                };
                let x = self.conv(k, BitSize::B16, BitSize::B32, s[0]);
                let y = self.conv(k, BitSize::B16, BitSize::B32, s[1]);
                let p = self.a(IMul, &[x, y]);
                let h = self.a(UShr, &[p, Src::Imm(16)]);
                Some(self.conv(
                    ConvKind::I2I { signed: false },
                    BitSize::B32,
                    BitSize::B16,
                    h,
                ))
            }
            UBitfieldExtract | SBitfieldExtract | BitfieldInsert => Some(self.bitfield(a)),
            ISign => {
                let pos = self.op(SLt, a.size, &[Src::Imm(0), s[0]]);
                let neg = self.op(SLt, a.size, &[s[0], Src::Imm(0)]);
                let one = self.op(Select, a.size, &[pos, Src::Imm(1), Src::Imm(0)]);
                Some(self.op(Select, a.size, &[neg, Src::Imm(a.size.mask()), one]))
            }
            _ => None,
        }
    }
}

pub fn run(shader: &mut Shader) {
    for b in shader.block_ids().collect::<Vec<_>>() {
        let instrs = std::mem::take(&mut shader.block_mut(b).instrs);
        let mut bld = B {
            shader,
            out: Vec::with_capacity(instrs.len()),
        };
        for instr in instrs {
            if let (Op::Alu(a), Some(d)) = (&instr.op, instr.dst) {
                if let Some(v) = bld.lower(a) {
                    let size = bld.shader.value_size(d);
                    bld.out.push(Instr {
                        dst: Some(d),
                        op: Op::alu(AluOp::Mov, size, &[v]),
                    });
                    continue;
                }
            }
            bld.out.push(instr);
        }
        let out = std::mem::take(&mut bld.out);
        shader.block_mut(b).instrs = out;
    }
}
