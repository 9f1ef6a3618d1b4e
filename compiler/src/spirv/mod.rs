//! The SPIR-V front end: a module (as glslang or DXC emit it for compute shaders) to the IR.

mod bindings;
mod counted_loop;
mod derivatives;
mod function;
mod glsl_std450;
mod image;
mod integer_dot;
mod interface;
mod layout;
mod memory_semantics;
mod module;
mod operands;
mod shared_zeroing;
mod subgroup;
mod subgroup_shuffle;
mod subgroup_wide;
mod values;

use crate::error::{CompileError, Result};
use crate::ir::Shader;
use std::collections::HashMap;

pub use bindings::DeclaredBinding;

/// What the front end needs besides the module.
#[derive(Clone, Debug, Default)]
pub struct FrontEndOptions {
    /// The entry point's name ("main" for glslang).
    pub entry: String,
    /// Specialisation constant values by SpecId, as bit patterns of the constant's type
    /// (booleans: 0 or 1).
    pub spec_constants: HashMap<u32, u64>,
}

/// Translates a SPIR-V module's compute entry point into the IR, with every function
/// inlined. Invalid or unsupported input gives an error naming the instruction.
pub fn translate(words: &[u32], options: &FrontEndOptions) -> Result<Shader> {
    let m = load(words, options)?;
    let mut t = function::Translator::new(&m);
    t.entry()?;
    Ok(t.shader)
}

/// The descriptor bindings the module's compute entry point declares, with their kinds
/// and array sizes, ordered by set and binding: what a pipeline layout made for the
/// shader holds. The entry point's variables are those its interface names and those its
/// call tree references.
pub fn declared_bindings(words: &[u32], options: &FrontEndOptions) -> Result<Vec<DeclaredBinding>> {
    let m = load(words, options)?;
    bindings::declared_bindings(&m, &options.entry)
}

fn load(words: &[u32], options: &FrontEndOptions) -> Result<module::Module> {
    check_framing(words)?;
    let words = execution_mode_ids_as_modes(words);
    let dr = rspirv::dr::load_words(&words)
        .map_err(|e| CompileError::new(format!("the module is not valid SPIR-V: {e}")))?;
    module::Module::new(dr, &options.entry, &options.spec_constants)
}

/// The module with each OpExecutionModeId (SPIR-V 1.2's form for modes whose operands
/// are ids, as LocalSizeId) turned into an OpExecutionMode of the same operands: rspirv's
/// loader refuses the former outside a function, while it decodes a mode's operands by
/// the mode whichever opcode carries them, so the ids still read as ids. Framing is
/// checked first.
fn execution_mode_ids_as_modes(words: &[u32]) -> Vec<u32> {
    use rspirv::spirv::Op;
    let mut words = words.to_vec();
    let mut at = 5;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        if words[at] & 0xffff == Op::ExecutionModeId as u32 {
            words[at] = (words[at] & 0xffff_0000) | Op::ExecutionMode as u32;
        }
        at += count;
    }
    words
}

/// Checks that the module is a header followed by whole instructions (each word count at
/// least one and within the module), which rspirv's decoder assumes.
fn check_framing(words: &[u32]) -> Result<()> {
    if words.len() < 5 || words[0] != rspirv::spirv::MAGIC_NUMBER {
        return Err(CompileError::new(
            "the module is not SPIR-V (no header with the magic number)",
        ));
    }
    let mut at = 5;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        if count == 0 || at + count > words.len() {
            return Err(CompileError::new(format!(
                "the instruction at word {at} (opcode {}) has a word count of {count}, past the end of the module",
                words[at] & 0xffff
            )));
        }
        at += count;
    }
    Ok(())
}
