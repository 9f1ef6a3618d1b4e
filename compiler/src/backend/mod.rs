//! The ir3 back end: instruction selection, scheduling, register allocation, legalisation
//! and encoding, producing what the driver needs to run the shader.

pub mod coalesce;
pub mod emit;
pub mod isel;
pub mod legalize;
pub mod mir;
pub mod occupancy;
pub mod ra;
pub mod sched;
pub mod subgroup_macro;

use crate::error::{CompileError, Result};
use crate::ir;
use crate::stage_info;
use crate::target::ShaderModel;
use parsnip_isa::IsaGen;

pub use crate::stage_info::{RegId, Stage, StageInfo};
pub use isel::InputRegs;

/// The statistics reported through VK_KHR_pipeline_executable_properties.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Instructions up to and including `end` (not the padding after it).
    pub instructions: u32,
    /// Of which nops.
    pub nops: u32,
    /// Instructions with `(ss)` and with `(sy)`.
    pub ss: u32,
    pub sy: u32,
    /// Register footprint in vec4s.
    pub full_regs: u32,
    pub half_regs: u32,
    /// Values spilled to private memory.
    pub spills: u32,
    /// Waves an SP can hold at this footprint and wave size.
    pub max_waves: u32,
}

impl Stats {
    /// `name: value` lines, the `--stats` format of parsnip-compile.
    pub fn lines(&self) -> String {
        format!(
            "instructions: {}\nnops: {}\nss: {}\nsy: {}\nfull_regs: {}\nhalf_regs: {}\nspills: {}\nmax_waves: {}\n",
            self.instructions, self.nops, self.ss, self.sy, self.full_regs, self.half_regs, self.spills, self.max_waves
        )
    }
}

/// A compiled shader and everything the driver programs for it: what every stage has
/// here, what differs between stages in [`StageInfo`].
#[derive(Clone, Debug)]
pub struct CompiledShader {
    /// The program, two dwords per instruction (low dword first), padded to 16
    /// instructions.
    pub code: Vec<u32>,
    /// Instructions in `code`, padding included (SP_CS_INSTRLEN is this / 16).
    pub instr_count: u32,
    /// Threads per wave: 64, or 128 on GPUs that support double wave size.
    pub wave_size: u32,
    /// Register footprint (SP_xS_CTRL_REG0 FULLREGFOOTPRINT / HALFREGFOOTPRINT), vec4s.
    pub full_regs: u32,
    pub half_regs: u32,
    /// Const-file vec4s the shader reads (push constants and driver parameters).
    pub const_vec4: u32,
    pub consts: ir::ConstLayout,
    /// Private memory per invocation (local arrays and spills), bytes.
    pub private_bytes: u32,
    /// The shader reads bindless textures (`isam`, `saml`, `getsize`, ...):
    /// SP_xS_CONFIG.BINDLESS_TEX (a6xx.xml) must say so, as Turnip sets it from ir3's
    /// `bindless_tex`.
    pub bindless_textures: bool,
    /// The shader samples through bindless samplers (`sam`, `saml`):
    /// SP_xS_CONFIG.BINDLESS_SAMP, from ir3's `bindless_samp`, which only instructions
    /// naming a sampler set.
    pub bindless_samplers: bool,
    /// The shader stores to or does atomics on memory other invocations can see (buffers
    /// and images: `stib`, `atomic.b.*`, `stg`, global atomics). A fragment shader that
    /// does must run before the depth test decides on its fragments (late Z) unless it
    /// asks for early fragment tests: the spec makes its side effects happen for every
    /// fragment that is rasterised.
    pub writes_memory: bool,
    /// The stage and what the driver programs for its inputs and outputs.
    pub stage: StageInfo,
    pub stats: Stats,
    pub disassembly: String,
}

fn words_to_dwords(words: &[u64]) -> Vec<u32> {
    words
        .iter()
        .flat_map(|w| [*w as u32, (*w >> 32) as u32])
        .collect()
}

/// Refuses a shader whose private memory (`local` bytes of local arrays and `spilled`
/// bytes of registers, `total` in all) the hardware cannot give each invocation.
fn check_private_bytes(total: u32, local: u32, spilled: u32) -> Result<()> {
    let limit = crate::target::max_private_bytes();
    if total <= limit {
        return Ok(());
    }
    Err(CompileError::new(format!(
        "the shader needs {total} bytes of private memory per invocation ({local} for \
         local arrays indexed at run time, {spilled} for spilled registers); \
         SP_CS_PVT_MEM_PARAM.MEMSIZEPERITEM gives an invocation at most {limit}"
    )))
}

/// Compiles a lowered, optimised shader.
pub fn compile(shader: &ir::Shader, model: &dyn ShaderModel) -> Result<CompiledShader> {
    let gen = if model.gpu().chip == parsnip_registers::chip::Chip::A7xx {
        IsaGen::A7xx
    } else {
        IsaGen::A6xx
    };
    check_private_bytes(shader.scratch_bytes, shader.scratch_bytes, 0)?;
    let (mut m, io) = isel::select(shader, gen)?;
    coalesce::outputs(&mut m);
    mir::remove_dead(&mut m);
    let uses_barrier = shader.blocks.iter().any(|b| {
        b.instrs.iter().any(|i| {
            matches!(
                i.op,
                ir::Op::Barrier(ir::Barrier {
                    execution: true,
                    ..
                })
            )
        })
    });
    let [x, y, z] = shader.local_size;
    let invocations = x * y * z;
    let uses_subgroups = shader.blocks.iter().any(|b| {
        b.instrs.iter().any(|i| {
            matches!(
                i.op,
                ir::Op::Subgroup(_) | ir::Op::SysVal(ir::SysVal::SubgroupInvocationId)
            )
        })
    });
    let required = shader.wave_size_required.then(|| {
        shader.subgroup_size == model.wave_size(true)
            && shader.subgroup_size != model.wave_size(false)
    });
    let waves = match required {
        Some(double) => occupancy::Waves::Only(double),
        None if uses_subgroups => occupancy::Waves::Only(false),
        None => occupancy::Waves::Either,
    };
    let plan = occupancy::plan(model, invocations, uses_barrier, waves)?;
    sched::schedule(&mut m, model, plan.target);
    let alloc = ra::allocate(&mut m, shader.scratch_bytes, plan.budget).map_err(|e| {
        if plan.budget < ra::FULL_SCALARS {
            CompileError::new(format!(
                "{e} (a work group of {invocations} invocations with a barrier leaves each {} registers)",
                plan.budget / 4
            ))
        } else {
            e
        }
    })?;
    let (prog, starts) = legalize::legalize(&m, &alloc, model);
    let (instrs, words) = emit::emit(&prog, &starts, &m, &alloc, gen)?;

    // Footprint: every scalar any value occupies, and the hardware-written inputs.
    let mut max_full: Option<u32> = None;
    let mut max_half: Option<u32> = None;
    for (v, info) in m.vregs.iter().enumerate() {
        let p = alloc.phys[v];
        if p == u32::MAX {
            continue;
        }
        let last = p + info.size as u32 - 1;
        if info.half {
            max_half = Some(max_half.map_or(2 * last, |h: u32| h.max(2 * last)));
        }
        max_full = Some(max_full.map_or(last, |f: u32| f.max(last)));
    }
    for &r in &m.fixed_inputs {
        if (r as u32) < ra::FULL_SCALARS {
            max_full = Some(max_full.map_or(r as u32, |f: u32| f.max(r as u32)));
        }
    }
    let full_regs = max_full.map_or(0, |f| f / 4 + 1);
    let half_regs = max_half.map_or(0, |h| h / 4 + 1);

    let double = plan.double;
    // All waves of a work group with a barrier must be resident at once; the budget
    // made sure of it.
    if uses_barrier
        && invocations.div_ceil(model.wave_size(double)) > model.max_waves(full_regs, double)
    {
        return Err(CompileError::new(format!(
            "a workgroup of {invocations} invocations with a barrier needs more waves than fit at {full_regs} registers"
        )));
    }
    let private_bytes = shader.scratch_bytes.next_multiple_of(4) + alloc.spill_bytes;
    check_private_bytes(private_bytes, shader.scratch_bytes, alloc.spill_bytes)?;
    let end = prog
        .iter()
        .position(|l| matches!(l.op, legalize::LOp::End))
        .map_or(prog.len(), |e| e + 1);
    let stats = Stats {
        instructions: end as u32,
        nops: prog[..end]
            .iter()
            .filter(|l| legalize::is_nop(&l.op))
            .count() as u32,
        ss: prog[..end].iter().filter(|l| l.ss).count() as u32,
        sy: prog[..end].iter().filter(|l| l.sy).count() as u32,
        full_regs,
        half_regs,
        spills: alloc.spills,
        max_waves: model.max_waves(full_regs, double),
    };
    let bindless_textures = m
        .blocks
        .iter()
        .any(|b| b.instrs.iter().any(|op| matches!(op, mir::MOp::Tex { .. })));
    let writes_memory = m.blocks.iter().any(|b| {
        b.instrs.iter().any(|op| match op {
            mir::MOp::Ibo { op, .. } => *op != parsnip_isa::Opcode::LdibB,
            mir::MOp::Global { op, .. } => *op == parsnip_isa::Opcode::Stg,
            mir::MOp::GlobalAtomic { .. } => true,
            _ => false,
        })
    });
    let tex_op = |want: &[parsnip_isa::Opcode]| {
        m.blocks.iter().any(|b| {
            b.instrs
                .iter()
                .any(|op| matches!(op, mir::MOp::Tex { op, .. } if want.contains(op)))
        })
    };
    let bindless_samplers = tex_op(&[
        parsnip_isa::Opcode::Saml,
        parsnip_isa::Opcode::Sam,
        parsnip_isa::Opcode::Samb,
        parsnip_isa::Opcode::Samgq,
        parsnip_isa::Opcode::Gather4r,
        parsnip_isa::Opcode::Gather4g,
        parsnip_isa::Opcode::Gather4b,
        parsnip_isa::Opcode::Gather4a,
    ]);
    // `sam` takes its level of detail from the quad's derivatives; `dsx`/`dsy` and their
    // fine forms read the quad's other fibers.
    let uses_derivatives = tex_op(&[
        parsnip_isa::Opcode::Sam,
        parsnip_isa::Opcode::Samb,
        parsnip_isa::Opcode::Dsx,
        parsnip_isa::Opcode::Dsy,
        parsnip_isa::Opcode::Dsxpp1,
        parsnip_isa::Opcode::Dsypp1,
    ]);
    let reads = |r: u8| m.fixed_inputs.iter().any(|f| (r..r + 3).contains(f));
    let disassembly = instrs.iter().map(|i| format!("{i}\n")).collect();
    let stage = match io.stage_info(shader, &alloc.phys, uses_derivatives) {
        Some(info) => info,
        None => StageInfo::Compute(stage_info::ComputeInfo {
            local_size: shader.local_size,
            shared_bytes: shader.shared_bytes,
            uses_barrier,
            local_id_reg: reads(isel::INPUT_REGS.local_id)
                .then_some(RegId(isel::INPUT_REGS.local_id)),
            workgroup_id_reg: reads(isel::INPUT_REGS.workgroup_id)
                .then_some(RegId(isel::INPUT_REGS.workgroup_id)),
        }),
    };
    Ok(CompiledShader {
        code: words_to_dwords(&words),
        instr_count: instrs.len() as u32,
        wave_size: model.wave_size(double),
        full_regs,
        half_regs,
        const_vec4: shader.consts.dwords.div_ceil(4),
        consts: shader.consts.clone(),
        private_bytes,
        bindless_textures,
        bindless_samplers,
        writes_memory,
        stage,
        stats,
        disassembly,
    })
}
