//! A rig for the shader processor's tests: an address space with buffers,
//! programs assembled from text with the ISA's assembler, and a dispatch
//! with every field at a plain default, run through `sp::run_compute`.

#![allow(dead_code)]

use std::sync::Arc;

use parsnip_isa::{assemble, IsaGen};
use parsnip_sim::compute_dispatch::{
    BindlessBase, ComputeDispatch, DescriptorSource, RegId, ShaderState,
};
use parsnip_sim::memory::{AddressSpace, OwnedBacking};
use parsnip_sim::report::{ShaderFailure, ShaderSite};
use parsnip_sim::sp::{run_compute, SpStats};

/// Both ISA generations, for tests whose encodings do not differ.
pub const GENS: [IsaGen; 2] = [IsaGen::A6xx, IsaGen::A7xx];

/// `rN.c` as a register id.
pub fn reg(n: u8, comp: u8) -> RegId {
    RegId(n << 2 | comp)
}

pub struct Rig {
    pub mem: AddressSpace,
    pub generation: IsaGen,
    next: u64,
}

impl Rig {
    pub fn new(generation: IsaGen) -> Rig {
        Rig {
            mem: AddressSpace::new(),
            generation,
            next: 0x1_0000_0000,
        }
    }

    /// Maps a buffer holding `bytes`; buffers are 64 KiB apart, so an
    /// access past one faults.
    pub fn buffer(&mut self, bytes: &[u8]) -> u64 {
        let iova = self.next;
        self.next += (bytes.len() as u64).div_ceil(0x1_0000).max(1) * 0x1_0000 + 0x1_0000;
        self.mem
            .map(iova, Arc::new(OwnedBacking::from_bytes(bytes).unwrap()))
            .unwrap();
        iova
    }

    pub fn words(&mut self, words: &[u32]) -> u64 {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        self.buffer(&bytes)
    }

    /// A buffer of `n` dwords, each 0xdeadbeef.
    pub fn poisoned(&mut self, n: usize) -> u64 {
        self.words(&vec![0xdead_beef; n])
    }

    pub fn read(&self, iova: u64, n: usize) -> Vec<u32> {
        self.mem.read_dwords(iova, n).unwrap()
    }

    /// Assembles `source` for the rig's generation and maps it.
    pub fn program(&mut self, source: &str) -> u64 {
        let words =
            assemble(source, self.generation).unwrap_or_else(|e| panic!("{e}\nin:\n{source}"));
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        self.buffer(&bytes)
    }

    /// A dispatch of one work group of one fiber running the program at
    /// `program`: local id in r0.xyz, work group id in r1.xyz, 8 full
    /// registers, merged half registers, waves of 64.
    pub fn dispatch(&self, program: u64) -> ComputeDispatch {
        ComputeDispatch {
            shader: ShaderState {
                a7xx: self.generation.is_a7xx(),
                gpu: parsnip_registers::gpu::by_name(if self.generation.is_a7xx() {
                    "a740"
                } else {
                    "a660"
                })
                .unwrap(),
                program_iova: program,
                program_len: 16,
                wave_size: 64,
                full_regs: 8,
                half_regs: 0,
                merged_regs: true,
                shared_consts: Default::default(),
                consts: Vec::new(),
                private_iova: 0,
                private_per_fiber: 0,
                gmem_window: (0, 0),
                bindless: Vec::new(),
                ubos: DescriptorSource::None,
                ibos: DescriptorSource::None,
                textures: DescriptorSource::None,
                samplers: DescriptorSource::None,
                instruction_budget: 1 << 20,
                time_budget: None,
            },
            local_size: [1, 1, 1],
            group_count: [1, 1, 1],
            group_offset: [0; 3],
            work_group_id: reg(1, 0),
            local_id: reg(0, 0),
            local_size_reg: RegId::UNUSED,
            work_group_offset: RegId::UNUSED,
            linear_local_id: RegId::UNUSED,
            shared_size: 0,
        }
    }

    pub fn run(&self, d: &ComputeDispatch) -> Result<SpStats, ShaderFailure> {
        run_compute(d, 0, &self.mem)
    }

    /// Runs and panics with the failure's description on failure.
    pub fn run_ok(&self, d: &ComputeDispatch) -> SpStats {
        self.run(d).unwrap_or_else(|f| panic!("{f:?}"))
    }

    /// Runs a dispatch that must fail with an error (not a fault or hang):
    /// its message and where it happened.
    pub fn run_error(&self, d: &ComputeDispatch) -> (String, Option<ShaderSite>) {
        match self.run(d) {
            Err(ShaderFailure::Error { message, at }) => (message, at),
            other => panic!("expected an error, got {other:?}"),
        }
    }
}

/// Consts holding a 64-bit address in c0.x/c0.y, then `more`.
pub fn address_consts(iova: u64, more: &[u32]) -> Vec<u32> {
    let mut c = vec![iova as u32, (iova >> 32) as u32, 0, 0];
    c.extend_from_slice(more);
    while c.len() % 4 != 0 {
        c.push(0);
    }
    c
}

/// A bindless descriptor set of 64-byte descriptors at `iova`.
pub fn bindless_set(iova: u64) -> Option<BindlessBase> {
    Some(BindlessBase {
        iova,
        descriptor_size: 64,
    })
}

/// The prologue most tests share: r2.xy = the result buffer's address
/// (c0.xy) + 4 * local id x, where the fiber stores its result.
pub const PROLOGUE: &str = "
shl.b r0.w, r0.x, 2
add.u r2.x, c0.x, r0.w
mov.u32u32 r2.y, c0.y
";

/// Stores r3.x at the fiber's result and ends.
pub const STORE_R3X: &str = "
stg.u32 g[r2.x], r3.x, 1
end
";

/// Runs `body` in one fiber after [`PROLOGUE`] with `consts` after the
/// result address (from c1.x on) and returns the `n` dwords it stores from
/// its result address (`stg.u32 g[r2.x+4k], ...`).
pub fn run_single(generation: IsaGen, body: &str, consts: &[u32], n: usize) -> Vec<u32> {
    let mut rig = Rig::new(generation);
    let out = rig.poisoned(n);
    let p = rig.program(&format!("{PROLOGUE}{body}\nend\n"));
    let mut d = rig.dispatch(p);
    d.consts = address_consts(out, consts);
    rig.run_ok(&d);
    rig.read(out, n)
}

pub fn f(x: f32) -> u32 {
    x.to_bits()
}

/// Runs `body` (after [`PROLOGUE`], followed by `end`) in one work group of
/// `threads` fibers with `consts` from c1.x on, and returns `n` dwords from
/// the result buffer (one per fiber at `r2.x` unless the body stores more).
pub fn run_group(
    generation: IsaGen,
    threads: u32,
    body: &str,
    consts: &[u32],
    n: usize,
) -> (Vec<u32>, SpStats) {
    let mut rig = Rig::new(generation);
    let out = rig.poisoned(n);
    let p = rig.program(&format!("{PROLOGUE}{body}\nend\n"));
    let mut d = rig.dispatch(p);
    d.local_size = [threads, 1, 1];
    d.consts = address_consts(out, consts);
    let stats = rig.run_ok(&d);
    (rig.read(out, n), stats)
}
