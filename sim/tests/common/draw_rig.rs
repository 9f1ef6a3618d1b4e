//! A model with room for draws: buffers mapped on demand for vertices,
//! shaders (assembled for the GPU's generation) and render targets.

use std::sync::Arc;

use parsnip_isa::{assemble, IsaGen};
use parsnip_registers::Chip;
use parsnip_sim::memory::OwnedBacking;
use parsnip_sim::{GpuError, SimOptions, SubmitStats};

use super::{test_options, Rig, Stream};

pub struct DrawRig {
    pub rig: Rig,
    next: u64,
}

impl DrawRig {
    pub fn new(gpu: &str) -> DrawRig {
        DrawRig::with_options(gpu, test_options())
    }

    /// A rig whose model runs with `options` (the benchmark's budgets).
    pub fn with_options(gpu: &str, options: SimOptions) -> DrawRig {
        DrawRig {
            rig: Rig::with_model(gpu, options),
            next: 0x2_0000_0000,
        }
    }

    pub fn chip(&self) -> Chip {
        self.rig.chip()
    }

    pub fn stream(&self) -> Stream {
        self.rig.stream()
    }

    /// Maps a buffer holding `bytes`, 64 KiB-aligned and apart.
    pub fn buffer(&mut self, bytes: &[u8]) -> u64 {
        let iova = self.next;
        self.next += (bytes.len() as u64).div_ceil(0x1_0000).max(1) * 0x1_0000 + 0x1_0000;
        self.rig
            .gpu
            .memory()
            .map(iova, Arc::new(OwnedBacking::from_bytes(bytes).unwrap()))
            .unwrap();
        iova
    }

    pub fn words(&mut self, words: &[u32]) -> u64 {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        self.buffer(&bytes)
    }

    pub fn floats(&mut self, v: &[f32]) -> u64 {
        let words: Vec<u32> = v.iter().map(|f| f.to_bits()).collect();
        self.words(&words)
    }

    /// A shader assembled for this GPU's generation.
    pub fn program(&mut self, source: &str) -> u64 {
        let generation = match self.chip() {
            Chip::A6xx => IsaGen::A6xx,
            Chip::A7xx => IsaGen::A7xx,
        };
        let words = assemble(source, generation).unwrap_or_else(|e| panic!("{e}\nin:\n{source}"));
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        self.buffer(&bytes)
    }

    pub fn read(&self, iova: u64, len: usize) -> Vec<u8> {
        let mut out = vec![0u8; len];
        self.rig.gpu.memory().read(iova, &mut out).unwrap();
        out
    }

    pub fn run(&mut self, s: &Stream) -> Result<SubmitStats, GpuError> {
        self.rig.run(s)
    }
}
