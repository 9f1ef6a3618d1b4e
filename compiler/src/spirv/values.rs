//! SPIR-V instructions that compute values: arithmetic, comparisons, conversions,
//! composites and matrices, split into scalar IR operations.

use super::function::{err, Comp, Ids, Translator};
use super::module::Type;
use super::operands::{id_at, lit_at, result_of};
use crate::error::Result;
use crate::ir::*;
use rspirv::dr;
use rspirv::spirv::Op as SpvOp;

impl Translator<'_> {
    pub(super) fn map1(&mut self, op: AluOp, a: &Comp) -> Result<Comp> {
        let mut srcs = Vec::new();
        let mut sizes = Vec::new();
        for (s, size) in a.srcs.iter().zip(&a.sizes) {
            srcs.push(self.alu(op, *size, &[*s])?);
            sizes.push(op.result_size(*size));
        }
        Ok(Comp::new(srcs, sizes))
    }

    pub(super) fn map2(&mut self, op: AluOp, a: &Comp, b: &Comp) -> Result<Comp> {
        if a.len() != b.len() {
            return Err(crate::CompileError::new(
                "operands have different component counts",
            ));
        }
        let mut srcs = Vec::new();
        let mut sizes = Vec::new();
        for i in 0..a.len() {
            srcs.push(self.alu(op, a.sizes[i], &[a.srcs[i], b.srcs[i]])?);
            sizes.push(op.result_size(a.sizes[i]));
        }
        Ok(Comp::new(srcs, sizes))
    }

    pub(super) fn map3(&mut self, op: AluOp, a: &Comp, b: &Comp, c: &Comp) -> Result<Comp> {
        if a.len() != b.len() || a.len() != c.len() {
            return Err(crate::CompileError::new(
                "operands have different component counts",
            ));
        }
        let mut srcs = Vec::new();
        for i in 0..a.len() {
            srcs.push(self.alu(op, a.sizes[i], &[a.srcs[i], b.srcs[i], c.srcs[i]])?);
        }
        Ok(Comp::new(srcs, a.sizes.clone()))
    }

    /// A scalar repeated to the length of `like`.
    pub(super) fn splat(s: Src, size: BitSize, n: usize) -> Comp {
        Comp::new(vec![s; n], vec![size; n])
    }

    pub(super) fn dot(&mut self, a: &Comp, b: &Comp) -> Result<Src> {
        if a.len() != b.len() || a.len() == 0 {
            return Err(crate::CompileError::new(
                "dot of vectors of different lengths",
            ));
        }
        let size = a.sizes[0];
        let mut acc = self.alu(AluOp::FMul, size, &[a.srcs[0], b.srcs[0]])?;
        for i in 1..a.len() {
            acc = self.alu(AluOp::FFma, size, &[a.srcs[i], b.srcs[i], acc])?;
        }
        Ok(acc)
    }

    /// `cond ? a : b` per component; a scalar condition applies to all.
    pub(super) fn select_c(&mut self, cond: &Comp, a: &Comp, b: &Comp) -> Result<Comp> {
        let mut srcs = Vec::new();
        for i in 0..a.len() {
            let c = if cond.len() == 1 {
                cond.srcs[0]
            } else {
                cond.srcs[i]
            };
            srcs.push(self.alu(AluOp::Select, a.sizes[i], &[c, a.srcs[i], b.srcs[i]])?);
        }
        Ok(Comp::new(srcs, a.sizes.clone()))
    }

    fn convert_all(&mut self, kind: ConvKind, a: &Comp, to: &[BitSize]) -> Result<Comp> {
        let mut srcs = Vec::new();
        for ((s, from), to) in a.srcs.iter().zip(&a.sizes).zip(to) {
            srcs.push(self.convert(kind, *from, *to, *s)?);
        }
        Ok(Comp::new(srcs, to.to_vec()))
    }

    /// OpBitcast between types of the same total width: splits the source into 16-bit
    /// pieces and reassembles them.
    fn bitcast(&mut self, a: &Comp, to: &[BitSize]) -> Result<Comp> {
        if a.sizes == to {
            return Ok(a.clone());
        }
        let mut pieces = Vec::new();
        for (s, size) in a.srcs.iter().zip(&a.sizes) {
            let halves32 = match size {
                BitSize::B64 => vec![
                    self.alu(AluOp::Unpack64Lo, BitSize::B64, &[*s])?,
                    self.alu(AluOp::Unpack64Hi, BitSize::B64, &[*s])?,
                ],
                BitSize::B32 => vec![*s],
                BitSize::B16 => {
                    pieces.push(*s);
                    continue;
                }
                BitSize::B1 => return Err(crate::CompileError::new("bitcast of a boolean")),
            };
            for h in halves32 {
                pieces.push(self.alu(AluOp::Unpack32Lo, BitSize::B32, &[h])?);
                pieces.push(self.alu(AluOp::Unpack32Hi, BitSize::B32, &[h])?);
            }
        }
        let mut out = Vec::new();
        let mut it = pieces.into_iter();
        let mut next = || {
            it.next()
                .ok_or_else(|| crate::CompileError::new("bitcast sizes differ"))
        };
        for size in to {
            out.push(match size {
                BitSize::B16 => next()?,
                BitSize::B32 => {
                    let (lo, hi) = (next()?, next()?);
                    self.alu(AluOp::Pack32, BitSize::B16, &[lo, hi])?
                }
                BitSize::B64 => {
                    let (a, b, c, d) = (next()?, next()?, next()?, next()?);
                    let lo = self.alu(AluOp::Pack32, BitSize::B16, &[a, b])?;
                    let hi = self.alu(AluOp::Pack32, BitSize::B16, &[c, d])?;
                    self.alu(AluOp::Pack64, BitSize::B32, &[lo, hi])?
                }
                BitSize::B1 => return Err(crate::CompileError::new("bitcast to a boolean")),
            });
        }
        if next().is_ok() {
            return Err(crate::CompileError::new("bitcast sizes differ"));
        }
        Ok(Comp::new(out, to.to_vec()))
    }

    /// The leaf range of member/element `index` within a composite of type `ty`, and the
    /// member's type.
    fn composite_part(
        &self,
        ty: u32,
        index: u32,
    ) -> std::result::Result<(usize, usize, u32), String> {
        let t = self.m.types.get(&ty).ok_or("not a type")?;
        let (elem, count, members): (u32, u32, Option<&Vec<u32>>) = match t {
            Type::Vector { elem, count } => (*elem, *count, None),
            Type::Matrix { column, count } => (*column, *count, None),
            Type::Array { elem, len } => (*elem, *len, None),
            Type::Struct { members } => (0, members.len() as u32, Some(members)),
            _ => return Err("not a composite".into()),
        };
        if index >= count {
            return Err(format!("index {index} out of range"));
        }
        match members {
            Some(ms) => {
                let mut start = 0;
                for m in &ms[..index as usize] {
                    start += self.m.leaves(*m)?.len();
                }
                Ok((
                    start,
                    self.m.leaves(ms[index as usize])?.len(),
                    ms[index as usize],
                ))
            }
            None => {
                let n = self.m.leaves(elem)?.len();
                Ok((index as usize * n, n, elem))
            }
        }
    }

    /// Leaf range reached by a list of literal indices into type `ty`.
    fn composite_path(
        &self,
        mut ty: u32,
        indices: &[u32],
    ) -> std::result::Result<(usize, usize), String> {
        let mut start = 0;
        let mut len = self.m.leaves(ty)?.len();
        for &i in indices {
            let (s, n, t) = self.composite_part(ty, i)?;
            start += s;
            len = n;
            ty = t;
        }
        Ok((start, len))
    }

    fn operand_type(&self, inst: &dr::Instruction, i: usize) -> Result<u32> {
        let id = id_at(inst, i)?;
        self.types_of
            .get(&id)
            .copied()
            .or_else(|| self.m.constant_type(id))
            .ok_or_else(|| err(inst, format!("the type of %{id} is unknown")))
    }

    pub(super) fn value_instruction(&mut self, ids: &Ids, inst: &dr::Instruction) -> Result<Comp> {
        use AluOp as A;
        use SpvOp as O;
        let op = inst.class.opcode;
        let sizes = self.result_sizes(inst)?;
        let c = |t: &Self, i: usize| t.comp(ids, inst, i);
        let bin = |t: &mut Self, a: AluOp| -> Result<Comp> {
            let (x, y) = (c(t, 0)?, c(t, 1)?);
            t.map2(a, &x, &y).map_err(|e| err(inst, e))
        };
        let bin_swapped = |t: &mut Self, a: AluOp| -> Result<Comp> {
            let (x, y) = (c(t, 0)?, c(t, 1)?);
            t.map2(a, &y, &x).map_err(|e| err(inst, e))
        };
        let un = |t: &mut Self, a: AluOp| -> Result<Comp> {
            let x = c(t, 0)?;
            t.map1(a, &x)
        };
        let negated = |t: &mut Self, r: Comp| t.map1(A::Not, &r);
        let r = match op {
            O::CopyObject | O::CopyLogical => c(self, 0)?,
            O::SNegate => un(self, A::INeg)?,
            O::FNegate => un(self, A::FNeg)?,
            O::DPdx
            | O::DPdy
            | O::DPdxFine
            | O::DPdyFine
            | O::DPdxCoarse
            | O::DPdyCoarse
            | O::Fwidth
            | O::FwidthFine
            | O::FwidthCoarse => self.derivative(op, &c(self, 0)?)?,
            O::Not | O::LogicalNot => un(self, A::Not)?,
            O::IAdd => bin(self, A::IAdd)?,
            O::ISub => bin(self, A::ISub)?,
            O::IMul => bin(self, A::IMul)?,
            O::UDiv => bin(self, A::UDiv)?,
            O::SDiv => bin(self, A::SDiv)?,
            O::UMod => bin(self, A::UMod)?,
            O::SRem => bin(self, A::SRem)?,
            O::SMod => bin(self, A::SMod)?,
            O::FAdd => bin(self, A::FAdd)?,
            O::FSub => bin(self, A::FSub)?,
            O::FMul => bin(self, A::FMul)?,
            O::FDiv => bin(self, A::FDiv)?,
            O::FRem | O::FMod => {
                // x - y * trunc(x / y) (FRem, sign of x) or floor (FMod, sign of y).
                let (x, y) = (c(self, 0)?, c(self, 1)?);
                let q = self.map2(A::FDiv, &x, &y)?;
                let q = self.map1(if op == O::FRem { A::FTrunc } else { A::FFloor }, &q)?;
                let p = self.map2(A::FMul, &y, &q)?;
                self.map2(A::FSub, &x, &p)?
            }
            O::ShiftLeftLogical | O::ShiftRightLogical | O::ShiftRightArithmetic => {
                let (x, n) = (c(self, 0)?, c(self, 1)?);
                let a = match op {
                    O::ShiftLeftLogical => A::Shl,
                    O::ShiftRightLogical => A::UShr,
                    _ => A::SShr,
                };
                let mut srcs = Vec::new();
                for i in 0..x.len() {
                    let amount = self.convert(
                        ConvKind::I2I { signed: false },
                        n.sizes[i],
                        BitSize::B32,
                        n.srcs[i],
                    )?;
                    srcs.push(self.alu(a, x.sizes[i], &[x.srcs[i], amount])?);
                }
                Comp::new(srcs, x.sizes.clone())
            }
            O::BitwiseAnd | O::LogicalAnd => bin(self, A::And)?,
            O::BitwiseOr | O::LogicalOr => bin(self, A::Or)?,
            O::BitwiseXor | O::LogicalNotEqual => bin(self, A::Xor)?,
            O::LogicalEqual => {
                let r = bin(self, A::Xor)?;
                negated(self, r)?
            }
            O::BitCount | O::BitReverse => {
                let x = c(self, 0)?;
                let a = if op == O::BitCount {
                    A::BitCount
                } else {
                    A::BitReverse
                };
                let r = self.map1(a, &x)?;
                self.convert_all(ConvKind::I2I { signed: false }, &r, &sizes)?
            }
            O::BitFieldInsert | O::BitFieldSExtract | O::BitFieldUExtract => {
                let x = c(self, 0)?;
                let rest: Vec<Comp> = (1..inst.operands.len())
                    .map(|i| c(self, i))
                    .collect::<Result<_>>()?;
                let mut srcs = Vec::new();
                for i in 0..x.len() {
                    let mut s = vec![x.srcs[i]];
                    let n = rest.len();
                    for (k, r) in rest.iter().enumerate() {
                        let v = r
                            .srcs
                            .get(i)
                            .or(r.srcs.first())
                            .copied()
                            .unwrap_or(Src::Imm(0));
                        // Offset and count are scalars of any integer size.
                        if k >= n - 2 {
                            s.push(self.convert(
                                ConvKind::I2I { signed: false },
                                r.sizes[0],
                                BitSize::B32,
                                v,
                            )?);
                        } else {
                            s.push(v);
                        }
                    }
                    let a = match op {
                        O::BitFieldInsert => A::BitfieldInsert,
                        O::BitFieldSExtract => A::SBitfieldExtract,
                        _ => A::UBitfieldExtract,
                    };
                    srcs.push(self.alu(a, x.sizes[i], &s)?);
                }
                Comp::new(srcs, x.sizes.clone())
            }
            O::IEqual => bin(self, A::IEq)?,
            O::INotEqual => bin(self, A::INe)?,
            O::ULessThan => bin(self, A::ULt)?,
            O::SLessThan => bin(self, A::SLt)?,
            O::ULessThanEqual => bin(self, A::ULe)?,
            O::SLessThanEqual => bin(self, A::SLe)?,
            O::UGreaterThan => bin_swapped(self, A::ULt)?,
            O::SGreaterThan => bin_swapped(self, A::SLt)?,
            O::UGreaterThanEqual => bin_swapped(self, A::ULe)?,
            O::SGreaterThanEqual => bin_swapped(self, A::SLe)?,
            O::FOrdEqual => bin(self, A::FEq)?,
            O::FUnordNotEqual => bin(self, A::FNeU)?,
            O::FOrdLessThan => bin(self, A::FLt)?,
            O::FOrdGreaterThan => bin_swapped(self, A::FLt)?,
            O::FOrdLessThanEqual => bin(self, A::FLe)?,
            O::FOrdGreaterThanEqual => bin_swapped(self, A::FLe)?,
            // Unordered comparisons are the negations of the opposite ordered ones.
            O::FUnordLessThan => {
                let r = bin_swapped(self, A::FLe)?;
                negated(self, r)?
            }
            O::FUnordGreaterThan => {
                let r = bin(self, A::FLe)?;
                negated(self, r)?
            }
            O::FUnordLessThanEqual => {
                let r = bin_swapped(self, A::FLt)?;
                negated(self, r)?
            }
            O::FUnordGreaterThanEqual => {
                let r = bin(self, A::FLt)?;
                negated(self, r)?
            }
            O::FOrdNotEqual | O::FUnordEqual => {
                let lt = bin(self, A::FLt)?;
                let gt = bin_swapped(self, A::FLt)?;
                let ne = self.map2(A::Or, &lt, &gt)?;
                if op == O::FOrdNotEqual {
                    ne
                } else {
                    negated(self, ne)?
                }
            }
            O::IsNan => un(self, A::FIsNan)?,
            O::IsInf => un(self, A::FIsInf)?,
            O::Ordered | O::Unordered => {
                let a = un(self, A::FIsNan)?;
                let b = {
                    let y = c(self, 1)?;
                    self.map1(A::FIsNan, &y)?
                };
                let any = self.map2(A::Or, &a, &b)?;
                if op == O::Ordered {
                    negated(self, any)?
                } else {
                    any
                }
            }
            O::Any | O::All => {
                let x = c(self, 0)?;
                let a = if op == O::Any { A::Or } else { A::And };
                let mut acc = x.srcs[0];
                for s in &x.srcs[1..] {
                    acc = self.alu(a, BitSize::B1, &[acc, *s])?;
                }
                Comp::new(vec![acc], vec![BitSize::B1])
            }
            O::Select => {
                let (cond, a, b) = (c(self, 0)?, c(self, 1)?, c(self, 2)?);
                if a.len() != b.len() || (cond.len() != 1 && cond.len() != a.len()) {
                    return Err(err(inst, "operands do not match"));
                }
                self.select_c(&cond, &a, &b)?
            }
            O::ConvertFToU
            | O::ConvertFToS
            | O::ConvertUToF
            | O::ConvertSToF
            | O::UConvert
            | O::SConvert
            | O::FConvert => {
                let kind = match op {
                    O::ConvertFToU => ConvKind::F2I { signed: false },
                    O::ConvertFToS => ConvKind::F2I { signed: true },
                    O::ConvertUToF => ConvKind::I2F { signed: false },
                    O::ConvertSToF => ConvKind::I2F { signed: true },
                    O::UConvert => ConvKind::I2I { signed: false },
                    O::SConvert => ConvKind::I2I { signed: true },
                    _ => ConvKind::F2F,
                };
                let x = c(self, 0)?;
                self.convert_all(kind, &x, &sizes)?
            }
            O::QuantizeToF16 => {
                let x = c(self, 0)?;
                let h = self.convert_all(ConvKind::F2F, &x, &vec![BitSize::B16; x.len()])?;
                self.convert_all(ConvKind::F2F, &h, &sizes)?
            }
            O::Bitcast => {
                let x = c(self, 0)?;
                self.bitcast(&x, &sizes).map_err(|e| err(inst, e))?
            }
            O::CompositeConstruct => {
                let mut srcs = Vec::new();
                let mut szs = Vec::new();
                for i in 0..inst.operands.len() {
                    let p = c(self, i)?;
                    srcs.extend(p.srcs);
                    szs.extend(p.sizes);
                }
                Comp::new(srcs, szs)
            }
            O::CompositeExtract => {
                let x = c(self, 0)?;
                let ty = self.operand_type(inst, 0)?;
                let idx: Vec<u32> = (1..inst.operands.len())
                    .map(|i| lit_at(inst, i))
                    .collect::<Result<_>>()?;
                let (s, n) = self.composite_path(ty, &idx).map_err(|e| err(inst, e))?;
                if s + n > x.len() {
                    return Err(err(inst, "index out of range"));
                }
                Comp::new(x.srcs[s..s + n].to_vec(), x.sizes[s..s + n].to_vec())
            }
            O::CompositeInsert => {
                let part = c(self, 0)?;
                let mut x = c(self, 1)?;
                let ty = self.operand_type(inst, 1)?;
                let idx: Vec<u32> = (2..inst.operands.len())
                    .map(|i| lit_at(inst, i))
                    .collect::<Result<_>>()?;
                let (s, n) = self.composite_path(ty, &idx).map_err(|e| err(inst, e))?;
                if n != part.len() || s + n > x.len() {
                    return Err(err(inst, "object does not match the indexed part"));
                }
                x.srcs[s..s + n].copy_from_slice(&part.srcs);
                x
            }
            O::VectorShuffle => {
                let (a, b) = (c(self, 0)?, c(self, 1)?);
                let mut srcs = Vec::new();
                let mut szs = Vec::new();
                for i in 2..inst.operands.len() {
                    let k = lit_at(inst, i)? as usize;
                    let (s, z) = if k == 0xffff_ffff {
                        (Src::Imm(0), a.sizes[0])
                    } else if k < a.len() {
                        (a.srcs[k], a.sizes[k])
                    } else if k - a.len() < b.len() {
                        (b.srcs[k - a.len()], b.sizes[k - a.len()])
                    } else {
                        return Err(err(inst, format!("component {k} out of range")));
                    };
                    srcs.push(s);
                    szs.push(z);
                }
                Comp::new(srcs, szs)
            }
            O::VectorExtractDynamic => {
                let (v, i) = (c(self, 0)?, c(self, 1)?);
                let idx = self.convert(
                    ConvKind::I2I { signed: false },
                    i.sizes[0],
                    BitSize::B32,
                    i.srcs[0],
                )?;
                let mut acc = v.srcs[0];
                for k in 1..v.len() {
                    let is_k = self.alu(A::IEq, BitSize::B32, &[idx, Src::Imm(k as u64)])?;
                    acc = self.alu(A::Select, v.sizes[k], &[is_k, v.srcs[k], acc])?;
                }
                Comp::new(vec![acc], vec![v.sizes[0]])
            }
            O::VectorInsertDynamic => {
                let (v, part, i) = (c(self, 0)?, c(self, 1)?, c(self, 2)?);
                let idx = self.convert(
                    ConvKind::I2I { signed: false },
                    i.sizes[0],
                    BitSize::B32,
                    i.srcs[0],
                )?;
                let mut srcs = Vec::new();
                for k in 0..v.len() {
                    let is_k = self.alu(A::IEq, BitSize::B32, &[idx, Src::Imm(k as u64)])?;
                    srcs.push(self.alu(A::Select, v.sizes[k], &[is_k, part.srcs[0], v.srcs[k]])?);
                }
                Comp::new(srcs, v.sizes.clone())
            }
            O::VectorTimesScalar | O::MatrixTimesScalar => {
                let (v, s) = (c(self, 0)?, c(self, 1)?);
                let sv = Self::splat(s.srcs[0], s.sizes[0], v.len());
                self.map2(A::FMul, &v, &sv)?
            }
            O::Dot => {
                let (a, b) = (c(self, 0)?, c(self, 1)?);
                let d = self.dot(&a, &b).map_err(|e| err(inst, e))?;
                Comp::new(vec![d], vec![a.sizes[0]])
            }
            O::MatrixTimesVector => {
                // Result row i = sum over columns j of M[j][i] * v[j].
                let (m, v) = (c(self, 0)?, c(self, 1)?);
                let (rows, cols) = (sizes.len(), v.len());
                if m.len() != rows * cols {
                    return Err(err(inst, "operand shapes do not match"));
                }
                let mut out = Vec::new();
                for i in 0..rows {
                    let row = Comp::new(
                        (0..cols).map(|j| m.srcs[j * rows + i]).collect(),
                        vec![sizes[0]; cols],
                    );
                    out.push(self.dot(&row, &v)?);
                }
                Comp::new(out, sizes.clone())
            }
            O::VectorTimesMatrix => {
                let (v, m) = (c(self, 0)?, c(self, 1)?);
                let (rows, cols) = (v.len(), sizes.len());
                if m.len() != rows * cols {
                    return Err(err(inst, "operand shapes do not match"));
                }
                let mut out = Vec::new();
                for j in 0..cols {
                    let col = Comp::new(
                        m.srcs[j * rows..(j + 1) * rows].to_vec(),
                        vec![sizes[0]; rows],
                    );
                    out.push(self.dot(&v, &col)?);
                }
                Comp::new(out, sizes.clone())
            }
            O::MatrixTimesMatrix => {
                let (a, b) = (c(self, 0)?, c(self, 1)?);
                let (ty, _) = result_of(inst)?;
                let (rows, cols) = self.matrix_shape(ty).map_err(|e| err(inst, e))?;
                let k = a.len() / rows.max(1);
                if a.len() != rows * k || b.len() != k * cols {
                    return Err(err(inst, "operand shapes do not match"));
                }
                let mut out = Vec::new();
                for j in 0..cols {
                    for i in 0..rows {
                        let row = Comp::new(
                            (0..k).map(|l| a.srcs[l * rows + i]).collect(),
                            vec![sizes[0]; k],
                        );
                        let col = Comp::new(b.srcs[j * k..(j + 1) * k].to_vec(), vec![sizes[0]; k]);
                        out.push(self.dot(&row, &col)?);
                    }
                }
                Comp::new(out, sizes.clone())
            }
            O::OuterProduct => {
                let (a, b) = (c(self, 0)?, c(self, 1)?);
                let mut out = Vec::new();
                for j in 0..b.len() {
                    for i in 0..a.len() {
                        out.push(self.alu(A::FMul, a.sizes[i], &[a.srcs[i], b.srcs[j]])?);
                    }
                }
                Comp::new(out, sizes.clone())
            }
            O::Transpose => {
                let m = c(self, 0)?;
                let (ty, _) = result_of(inst)?;
                let (rows, cols) = self.matrix_shape(ty).map_err(|e| err(inst, e))?;
                if m.len() != rows * cols {
                    return Err(err(inst, "operand shape does not match"));
                }
                // Result[j][i] = M[i][j]; M has `rows` columns of `cols` rows.
                let mut out = Vec::new();
                for j in 0..cols {
                    for i in 0..rows {
                        out.push(m.srcs[i * cols + j]);
                    }
                }
                Comp::new(out, sizes.clone())
            }
            O::IAddCarry | O::ISubBorrow | O::UMulExtended | O::SMulExtended => {
                let (a, b) = (c(self, 0)?, c(self, 1)?);
                let n = a.len();
                let mut lo = Vec::new();
                let mut hi = Vec::new();
                for i in 0..n {
                    let z = a.sizes[i];
                    let (x, y) = (a.srcs[i], b.srcs[i]);
                    match op {
                        O::IAddCarry => {
                            let s = self.alu(A::IAdd, z, &[x, y])?;
                            let carry = self.alu(A::ULt, z, &[s, x])?;
                            lo.push(s);
                            hi.push(self.convert(ConvKind::Bool, BitSize::B1, z, carry)?);
                        }
                        O::ISubBorrow => {
                            lo.push(self.alu(A::ISub, z, &[x, y])?);
                            let borrow = self.alu(A::ULt, z, &[x, y])?;
                            hi.push(self.convert(ConvKind::Bool, BitSize::B1, z, borrow)?);
                        }
                        _ => {
                            lo.push(self.alu(A::IMul, z, &[x, y])?);
                            let h = if op == O::UMulExtended {
                                A::UMulHigh
                            } else {
                                A::IMulHigh
                            };
                            hi.push(self.alu(h, z, &[x, y])?);
                        }
                    }
                }
                lo.extend(hi);
                Comp::new(lo, sizes.clone())
            }
            other => return Err(err(inst, format!("Op{other:?} is not supported"))),
        };
        if r.sizes.len() != sizes.len() {
            return Err(err(inst, "result does not match its type"));
        }
        Ok(r)
    }

    /// (rows, columns) of a matrix type.
    pub(super) fn matrix_shape(&self, ty: u32) -> std::result::Result<(usize, usize), String> {
        match self.m.types.get(&ty) {
            Some(Type::Matrix { column, count }) => match self.m.types.get(column) {
                Some(Type::Vector { count: rows, .. }) => Ok((*rows as usize, *count as usize)),
                _ => Err("matrix column is not a vector".into()),
            },
            _ => Err("not a matrix type".into()),
        }
    }
}
