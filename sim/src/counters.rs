//! The counters the graphics units keep for queries: RBBM_PRIMCTR_0..10
//! (the pipeline statistics, which run between START_*_CTRS and STOP_*_CTRS
//! events), and the RB's count of samples that passed the depth and
//! stencil tests (occlusion queries read it with ZPASS_DONE).
//!
//! Which counter is which is Turnip's reading of them (tu_query_pool.cc,
//! statistics_index): 0 input-assembly vertices, 1 input-assembly
//! primitives, 2 vertex shader invocations, 3 and 4 the tessellation
//! stages, 5 and 6 the geometry stage, 7 clipping invocations, 8 clipping
//! primitives, 9 fragment shader invocations, 10 compute shader
//! invocations. START/STOP_PRIMITIVE_CTRS gate the vertex-stage ones (0 to
//! 8), START/STOP_FRAGMENT_CTRS counter 9, START/STOP_COMPUTE_CTRS counter
//! 10.

use parsnip_registers::regs::{self, Register};
use parsnip_registers::Chip;

use crate::pc::DrawStats;

/// RBBM_PRIMCTR_0..10.
pub(crate) const PRIMITIVE_COUNTERS: usize = 11;

#[derive(Clone, Debug, Default)]
pub(crate) struct Counters {
    pub primitive: [u64; PRIMITIVE_COUNTERS],
    pub vertex_running: bool,
    pub fragment_running: bool,
    pub compute_running: bool,
    /// Samples that passed, since the context began.
    pub samples_passed: u64,
}

impl Counters {
    /// Adds a draw's work to the counters that run.
    pub fn add_draw(&mut self, s: &DrawStats) {
        if self.vertex_running {
            let c = &mut self.primitive;
            c[0] += s.vertices;
            c[1] += s.primitives;
            c[2] += s.vertex_invocations;
            c[7] += s.clip_invocations;
            c[8] += s.clip_primitives;
        }
        if self.fragment_running {
            self.primitive[9] += s.fragment_invocations;
        }
        self.samples_passed += s.passed_samples;
    }

    /// The live value of register `offset` if it is one of the counters'
    /// halves.
    pub fn register(&self, chip: Chip, offset: u32) -> Option<u32> {
        let first = regs::RbbmPrimctr0Lo::offset(chip)?;
        let i = offset.checked_sub(first)? as usize;
        if i >= 2 * PRIMITIVE_COUNTERS {
            return None;
        }
        let v = self.primitive[i / 2];
        Some(if i.is_multiple_of(2) {
            v as u32
        } else {
            (v >> 32) as u32
        })
    }
}
