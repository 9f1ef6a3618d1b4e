//! Vertex shader waves: one fiber per vertex, its inputs (the attributes
//! and ids vertex fetch decodes) written into its registers before the
//! first instruction, its outputs read from its registers after `end`.
//! Which registers those are is the VFD's and the VPC's business; this
//! launches the waves.

use super::dispatch::{check_wave_size, failure, DispatchContext};
use super::program::Program;
use super::trap::{error, Trap};
use super::wave::{Wave, WaveState};
use super::wave_registers::WaveRegisters;
use crate::memory::AddressSpace;
use crate::report::{GraphicsStage, Launch, ShaderFailure};
use crate::shader_state::ShaderState;

/// The vertex shader of one draw, run a wave at a time.
pub(crate) struct VertexShader<'a> {
    ctx: DispatchContext<'a>,
    program: Program,
    wave: Wave,
    draw: u32,
    waves: u32,
}

/// Why a vertex wave stopped: the shader, or the unit that fed or read it.
pub(crate) enum WaveError<E> {
    Shader(ShaderFailure),
    Unit(E),
}

impl<'a> VertexShader<'a> {
    pub fn new(
        shader: &'a ShaderState,
        memory: &'a AddressSpace,
        draw: u32,
    ) -> Result<Self, ShaderFailure> {
        check_wave_size(shader).map_err(|message| ShaderFailure::Error { message, at: None })?;
        Ok(VertexShader {
            ctx: DispatchContext::new(shader, memory),
            program: Program::new(shader.program_iova, shader.a7xx),
            wave: Wave::new(WaveRegisters::new(shader)),
            draw,
            waves: 0,
        })
    }

    /// Vertices one wave runs.
    pub fn wave_size(&self) -> usize {
        self.ctx.d.wave_size as usize
    }

    /// Runs one wave of `count` vertices: `inputs(lane, write)` writes fiber
    /// `lane`'s inputs through `write(register, value)`, and after the wave
    /// ends `outputs(lane, read)` reads what it left in its registers
    /// (`None` for a register outside its footprint).
    pub fn run_wave<E>(
        &mut self,
        count: usize,
        mut inputs: impl FnMut(usize, &mut dyn FnMut(u32, u32)) -> Result<(), E>,
        mut outputs: impl FnMut(usize, &dyn Fn(u32) -> Option<u32>) -> Result<(), E>,
    ) -> Result<(), WaveError<E>> {
        let index = self.waves;
        self.waves += 1;
        let launch = Launch::Draw {
            draw: self.draw,
            stage: GraphicsStage::Vertex,
        };
        let w = &mut self.wave;
        w.start(index, 0, count as u32);
        let mut trap: Option<Trap> = None;
        for lane in 0..count {
            let regs = &mut w.regs;
            inputs(lane, &mut |reg, value| {
                if trap.is_none() {
                    if let Err(t) = regs.write_input(reg, lane, value) {
                        trap = Some(t);
                    }
                }
            })
            .map_err(WaveError::Unit)?;
        }
        if let Some(t) = trap {
            return Err(WaveError::Shader(failure(
                t,
                launch,
                &self.ctx,
                index,
                0,
                &self.program,
            )));
        }
        let run = w.run(&mut self.program, &mut self.ctx).and_then(|()| {
            if w.state == WaveState::AtBarrier {
                error("bar in a vertex shader: its waves have no work group to meet")
                    .map_err(|t| (t, 0))
            } else {
                Ok(())
            }
        });
        if let Err((t, pc)) = run {
            return Err(WaveError::Shader(failure(
                t,
                launch,
                &self.ctx,
                index,
                pc,
                &self.program,
            )));
        }
        let regs = &w.regs;
        for lane in 0..count {
            outputs(lane, &|reg| {
                regs.locate(i64::from(reg), false)
                    .and_then(|loc| regs.read(loc, lane))
                    .ok()
            })
            .map_err(WaveError::Unit)?;
        }
        Ok(())
    }
}
