//! The passes over the IR, one per file, and the order the compiler runs them in.

pub mod lower_const_arrays;
pub mod lower_descriptors;
pub mod lower_div64;
pub mod lower_int64;
pub mod lower_int_ops;
pub mod lower_io;
pub mod lower_narrow_buffer_access;
pub mod lower_vars_to_ssa;
pub mod opt_algebraic;
pub mod opt_const_fold;
pub mod opt_copy_prop;
pub mod opt_cse;
pub mod opt_dce;
pub mod opt_reassociate;

use crate::descriptor_layout::DescriptorLayout;
use crate::error::Result;
use crate::ir::Shader;

/// A pass as the pipeline runs it: its name (for dumps) and what it does.
pub type Pass = (&'static str, fn(&mut Shader) -> bool);

/// The optimisation passes, repeated until none changes anything.
pub const OPTIMIZATIONS: &[Pass] = &[
    ("opt_copy_prop", opt_copy_prop::run),
    ("opt_const_fold", opt_const_fold::run),
    ("opt_algebraic", opt_algebraic::run),
    ("opt_reassociate", opt_reassociate::run),
    ("opt_cse", opt_cse::run),
    ("opt_dce", opt_dce::run),
];

/// Runs the optimisations to a fixed point (bounded, in case two rules undo each other).
/// `after_pass` sees the shader after each pass that changed it.
pub fn optimize(shader: &mut Shader, after_pass: &mut dyn FnMut(&str, &Shader)) {
    for _ in 0..16 {
        let mut changed = false;
        for (name, pass) in OPTIMIZATIONS {
            if pass(shader) {
                changed = true;
                after_pass(name, shader);
            }
        }
        if !changed {
            break;
        }
    }
}

/// Everything between the front end and instruction selection.
pub fn run_all(
    shader: &mut Shader,
    layout: &DescriptorLayout,
    after_pass: &mut dyn FnMut(&str, &Shader),
) -> Result<()> {
    if lower_const_arrays::run(shader) {
        after_pass("lower_const_arrays", shader);
    }
    lower_vars_to_ssa::run(shader);
    after_pass("lower_vars_to_ssa", shader);
    optimize(shader, after_pass);
    lower_io::run(shader);
    after_pass("lower_io", shader);
    lower_descriptors::run(shader, layout)?;
    after_pass("lower_descriptors", shader);
    if lower_narrow_buffer_access::run(shader) {
        after_pass("lower_narrow_buffer_access", shader);
    }
    if lower_div64::run(shader) {
        after_pass("lower_div64", shader);
    }
    lower_int64::run(shader)?;
    after_pass("lower_int64", shader);
    optimize(shader, after_pass);
    lower_int_ops::run(shader);
    after_pass("lower_int_ops", shader);
    optimize(shader, after_pass);
    Ok(())
}
