//! Integer dot products (shaderIntegerDotProduct): every OpSDot, OpUDot and
//! OpSUDot form, with and without saturating accumulation, on packed 4x8-bit
//! scalars and on 32- and 64-bit vectors, against the exact values computed
//! here in 128 bits. Where SPIR-V leaves a saturating form's result
//! undefined (a product or partial sum out of the result's range) the word
//! is not checked and is kept as 0, so the outputs compare between drivers.
//! The shader is SPIR-V assembly (glslang has no GL_EXT_integer_dot_product).

use super::atomics::run_two;
use super::integer_dot_expectation::{expected, inputs, WORDS};
use super::pseudo_random::Sequence;
use crate::bytes::to_bytes;
use crate::case::{Case, CaseResult, Stop};
use crate::harness::Harness;
use crate::shaders;

pub const CASES: &[Case] = &[Case {
    name: "integer_dot.all_forms",
    run: all_forms,
}];

const N: usize = 128;

fn all_forms(h: &mut Harness) -> Result<CaseResult, Stop> {
    if !h.caps().shader_integer_dot_product || !h.caps().shader_int64 {
        return Err(Stop::NotSupported(
            "shaderIntegerDotProduct with shaderInt64".into(),
        ));
    }
    let input = inputs(&Sequence::new(53).u32s(4 * N));
    let (_, got) = run_two(
        h,
        &shaders::INTEGER_DOT,
        &to_bytes(&input),
        &vec![0xa5; N * WORDS * 4],
        (N / 64) as u32,
    )?;
    let want = expected(&input);
    let masked: Vec<u32> = got
        .iter()
        .zip(&want)
        .map(|(g, w)| if w.is_some() { *g } else { 0 })
        .collect();
    let want: Vec<u32> = want.iter().map(|w| w.unwrap_or(0)).collect();
    let mut result = CaseResult::new();
    result.check("results", &masked, &want);
    Ok(result)
}
