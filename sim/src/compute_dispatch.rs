//! What the command processor hands the shader processor for one compute
//! dispatch (CP_EXEC_CS / CP_EXEC_CS_INDIRECT).
//!
//! On hardware the HLSQ reads the SP_CS_* / HLSQ_CS_* registers and the state
//! loaded by CP_LOAD_STATE6 and launches waves. In the model the command
//! processor gathers that state (checking in strict mode that each register it
//! reads was programmed) into this plain description, and the shader
//! processor executes it. Both halves are the model's own: no driver type
//! crosses here.
//!
//! A dispatch is a [`ShaderState`] (what every stage's launch has, which it
//! dereferences to) plus the work groups and where their built-ins go.

use std::ops::{Deref, DerefMut};

pub use crate::shader_state::{BindlessBase, DescriptorSource, RegId, ShaderState};

/// Everything the shader processor needs to run one compute dispatch.
#[derive(Clone, Debug)]
pub struct ComputeDispatch {
    /// The program and the state it runs with.
    pub shader: ShaderState,
    /// Local size (HLSQ_CS_NDRANGE_0) and work group counts (CP_EXEC_CS or
    /// the indirect buffer).
    pub local_size: [u32; 3],
    pub group_count: [u32; 3],
    /// HLSQ_CS_NDRANGE_2/4/6 GLOBALOFF_X/Y/Z, the OpenCL global offset in
    /// invocations. Where the hardware adds it is not public; Turnip and
    /// freedreno always program 0 (Vulkan's base group goes in a const).
    pub group_offset: [u32; 3],
    /// Where the hardware writes the built-ins for each thread.
    pub work_group_id: RegId,
    pub local_id: RegId,
    pub local_size_reg: RegId,
    pub work_group_offset: RegId,
    pub linear_local_id: RegId,
    /// Shared (local) memory per work group, in bytes.
    pub shared_size: u32,
}

impl Deref for ComputeDispatch {
    type Target = ShaderState;

    fn deref(&self) -> &ShaderState {
        &self.shader
    }
}

impl DerefMut for ComputeDispatch {
    fn deref_mut(&mut self) -> &mut ShaderState {
        &mut self.shader
    }
}
