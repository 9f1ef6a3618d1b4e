//! Shader inputs to where the hardware delivers them.
//!
//! A compute wave receives its local invocation id and its workgroup id in registers the
//! driver names (HLSQ_CS_CNTL_0's LOCALIDREGID and WGIDCONSTID on a6xx, a6xx.xml), counting
//! groups from 0 within the dispatch. Everything else comes through the const file, which
//! the driver fills with CP_LOAD_STATE6: the push constants, then the driver parameters
//! the shader reads (group counts for gl_NumWorkGroups, and vkCmdDispatchBase's base group,
//! which gl_WorkGroupID includes), as Turnip does with its "driver params" (see Turnip's
//! compute listing, which adds c1.x to r48.x for the base group).
//!
//! After this pass only `WorkgroupId` and `LocalInvocationId` system values remain (and
//! subgroup ones), and push constants are const-file loads.

use crate::ir::*;

/// Const-file offsets are bytes here; the back end turns them into c[] registers
/// (4 bytes per component, 16 per vec4).
pub fn run(shader: &mut Shader) {
    let ls = shader.local_size;
    // Push constants first, from c0.x.
    let push_dwords = shader.push_constant_bytes.div_ceil(4);
    if push_dwords > 0 {
        shader.consts.push_constants = Some((0, push_dwords));
    }
    let mut next = push_dwords.next_multiple_of(4);
    let mut params: Vec<(DriverParam, u32)> = Vec::new();
    let mut param_dword = |p: DriverParam, params: &mut Vec<(DriverParam, u32)>| {
        if let Some((_, d)) = params.iter().find(|(q, _)| *q == p) {
            return *d;
        }
        // Each kind of parameter takes a vec4 (x, y, z) so that the driver uploads whole
        // vec4s.
        let (group, lane) = p.vec4_slot();
        let lane = u32::from(lane);
        let same_kind = params.iter().find(|(q, _)| q.vec4_slot().0 == group);
        let base = match same_kind {
            Some((q, d)) => d - u32::from(q.vec4_slot().1),
            None => {
                let b = next;
                next += 4;
                b
            }
        };
        params.push((p, base + lane));
        base + lane
    };

    for b in shader.block_ids().collect::<Vec<_>>() {
        let old = std::mem::take(&mut shader.block_mut(b).instrs);
        let mut out: Vec<Instr> = Vec::with_capacity(old.len());
        for instr in old {
            let emit = |shader: &mut Shader, op: Op, size: BitSize, out: &mut Vec<Instr>| -> Src {
                let d = shader.new_value(size);
                out.push(Instr { dst: Some(d), op });
                d.into()
            };
            let sysval = |sv: SysVal| Op::SysVal(sv);
            let replacement: Option<Op> = match &instr.op {
                Op::SysVal(SysVal::NumWorkgroups(c)) => {
                    let dw = param_dword(DriverParam::NumWorkgroups(*c), &mut params);
                    Some(Op::Load(Load {
                        space: Space::Const,
                        offset: Src::Imm(dw as u64 * 4),
                        size: BitSize::B32,
                    }))
                }
                Op::SysVal(
                    sv @ (SysVal::BaseVertex | SysVal::BaseInstance | SysVal::ViewIndex),
                ) => {
                    let param = match sv {
                        SysVal::BaseVertex => DriverParam::BaseVertex,
                        SysVal::BaseInstance => DriverParam::BaseInstance,
                        _ => DriverParam::ViewIndex,
                    };
                    let dw = param_dword(param, &mut params);
                    Some(Op::Load(Load {
                        space: Space::Const,
                        offset: Src::Imm(dw as u64 * 4),
                        size: BitSize::B32,
                    }))
                }
                Op::SysVal(SysVal::BaseWorkgroup(c)) => {
                    let dw = param_dword(DriverParam::BaseWorkgroup(*c), &mut params);
                    Some(Op::Load(Load {
                        space: Space::Const,
                        offset: Src::Imm(dw as u64 * 4),
                        size: BitSize::B32,
                    }))
                }
                Op::SysVal(SysVal::GlobalInvocationId(c)) => {
                    let c = *c;
                    let wg = emit(
                        shader,
                        sysval(SysVal::WorkgroupId(c)),
                        BitSize::B32,
                        &mut out,
                    );
                    let dw = param_dword(DriverParam::BaseWorkgroup(c), &mut params);
                    let base = emit(
                        shader,
                        Op::Load(Load {
                            space: Space::Const,
                            offset: Src::Imm(dw as u64 * 4),
                            size: BitSize::B32,
                        }),
                        BitSize::B32,
                        &mut out,
                    );
                    let g = emit(
                        shader,
                        Op::alu(AluOp::IAdd, BitSize::B32, &[wg, base]),
                        BitSize::B32,
                        &mut out,
                    );
                    let scaled = emit(
                        shader,
                        Op::alu(
                            AluOp::IMul,
                            BitSize::B32,
                            &[g, Src::Imm(ls[c as usize] as u64)],
                        ),
                        BitSize::B32,
                        &mut out,
                    );
                    let local = emit(
                        shader,
                        sysval(SysVal::LocalInvocationId(c)),
                        BitSize::B32,
                        &mut out,
                    );
                    Some(Op::alu(AluOp::IAdd, BitSize::B32, &[scaled, local]))
                }
                Op::SysVal(SysVal::LocalInvocationIndex) => {
                    // (z * size.y + y) * size.x + x
                    let x = emit(
                        shader,
                        sysval(SysVal::LocalInvocationId(0)),
                        BitSize::B32,
                        &mut out,
                    );
                    let y = emit(
                        shader,
                        sysval(SysVal::LocalInvocationId(1)),
                        BitSize::B32,
                        &mut out,
                    );
                    let z = emit(
                        shader,
                        sysval(SysVal::LocalInvocationId(2)),
                        BitSize::B32,
                        &mut out,
                    );
                    let zy = emit(
                        shader,
                        Op::alu(AluOp::IMul, BitSize::B32, &[z, Src::Imm(ls[1] as u64)]),
                        BitSize::B32,
                        &mut out,
                    );
                    let zy = emit(
                        shader,
                        Op::alu(AluOp::IAdd, BitSize::B32, &[zy, y]),
                        BitSize::B32,
                        &mut out,
                    );
                    let zyx = emit(
                        shader,
                        Op::alu(AluOp::IMul, BitSize::B32, &[zy, Src::Imm(ls[0] as u64)]),
                        BitSize::B32,
                        &mut out,
                    );
                    Some(Op::alu(AluOp::IAdd, BitSize::B32, &[zyx, x]))
                }
                Op::SysVal(SysVal::SubgroupSize) if shader.subgroup_size != 0 => Some(Op::alu(
                    AluOp::Mov,
                    BitSize::B32,
                    &[Src::Imm(u64::from(shader.subgroup_size))],
                )),
                Op::Load(l) if l.space == Space::PushConst => lower_push_load(shader, l, &mut out),
                _ => None,
            };
            match replacement {
                Some(op) => out.push(Instr { dst: instr.dst, op }),
                None => out.push(instr),
            }
        }
        shader.block_mut(b).instrs = out;
    }
    params.sort_by_key(|p| p.1);
    shader.consts.driver_params = params;
    shader.consts.dwords = next;
}

/// A push-constant load becomes const-file loads of whole dwords (the const file has no
/// narrower element), with the half selected for 16-bit values. An offset known only at
/// run time reads every dword of the push constants and selects the addressed one: the
/// const file is small, and this needs no address register.
fn lower_push_load(shader: &mut Shader, l: &Load, out: &mut Vec<Instr>) -> Option<Op> {
    let dwords = shader.push_constant_bytes.div_ceil(4);
    let mut emit = |shader: &mut Shader, op: Op, size: BitSize| -> Src {
        let d = shader.new_value(size);
        out.push(Instr { dst: Some(d), op });
        d.into()
    };
    let load32 = |shader: &mut Shader,
                  off: Src,
                  emit: &mut dyn FnMut(&mut Shader, Op, BitSize) -> Src|
     -> Src {
        let direct = |o: Src| {
            Op::Load(Load {
                space: Space::Const,
                offset: o,
                size: BitSize::B32,
            })
        };
        if off.as_imm().is_some() {
            return emit(shader, direct(off), BitSize::B32);
        }
        let mut acc = Src::Imm(0);
        for k in 0..dwords {
            let v = emit(shader, direct(Src::Imm(k as u64 * 4)), BitSize::B32);
            let is_k = emit(
                shader,
                Op::alu(AluOp::IEq, BitSize::B32, &[off, Src::Imm(k as u64 * 4)]),
                BitSize::B1,
            );
            acc = emit(
                shader,
                Op::alu(AluOp::Select, BitSize::B32, &[is_k, v, acc]),
                BitSize::B32,
            );
        }
        acc
    };
    Some(match l.size {
        BitSize::B32 | BitSize::B1 => {
            let v = load32(shader, l.offset, &mut emit);
            Op::alu(AluOp::Mov, BitSize::B32, &[v])
        }
        BitSize::B64 => {
            let hi_off = emit(
                shader,
                Op::alu(AluOp::IAdd, BitSize::B32, &[l.offset, Src::Imm(4)]),
                BitSize::B32,
            );
            let lo = load32(shader, l.offset, &mut emit);
            let hi = load32(shader, hi_off, &mut emit);
            Op::alu(AluOp::Pack64, BitSize::B32, &[lo, hi])
        }
        BitSize::B16 => {
            let aligned = emit(
                shader,
                Op::alu(
                    AluOp::And,
                    BitSize::B32,
                    &[l.offset, Src::Imm(!3u32 as u64)],
                ),
                BitSize::B32,
            );
            let word = load32(shader, aligned, &mut emit);
            let lane = emit(
                shader,
                Op::alu(AluOp::And, BitSize::B32, &[l.offset, Src::Imm(2)]),
                BitSize::B32,
            );
            let bits = emit(
                shader,
                Op::alu(AluOp::Shl, BitSize::B32, &[lane, Src::Imm(3)]),
                BitSize::B32,
            );
            let shifted = emit(
                shader,
                Op::alu(AluOp::UShr, BitSize::B32, &[word, bits]),
                BitSize::B32,
            );
            Op::alu(AluOp::Unpack32Lo, BitSize::B32, &[shifted])
        }
    })
}
