//! OpTerminateInvocation (shaderTerminateInvocation) and
//! OpDemoteToHelperInvocation with OpIsHelperInvocationEXT
//! (shaderDemoteToHelperInvocation) in a fragment shader over the whole
//! target: terminated and demoted fragments write nothing, and demoted ones
//! go on as helpers that their quad's derivatives see.

use super::super::draws::{draw_three_vertices, pixel, target, SIZE};
use crate::case::{Case, CaseResult, Stop};
use crate::harness::{GraphicsDesc, Harness};
use crate::shaders;

pub const CASES: &[Case] = &[Case {
    name: "draws.terminate_and_demote",
    run: terminate_and_demote,
}];

const CLEAR: [u8; 4] = [0, 0, 0, 0];

/// What pixel (x, y) holds.
fn expected(x: u32, y: u32) -> [u8; 4] {
    match (y < 32, x % 2 == 1) {
        (_, true) => CLEAR,
        (true, false) => [255, 0, 255, 255],
        (false, false) => [(2 * x + 1) as u8, 255, 0, 255],
    }
}

fn terminate_and_demote(h: &mut Harness) -> Result<CaseResult, Stop> {
    let caps = h.caps();
    if !caps.shader_terminate_invocation || !caps.shader_demote_to_helper_invocation {
        return Err(Stop::NotSupported(
            "shaderTerminateInvocation and shaderDemoteToHelperInvocation".into(),
        ));
    }
    let t = target(h, false)?;
    let desc = GraphicsDesc::new(
        &shaders::FULLSCREEN_VERT,
        &shaders::TERMINATE_AND_DEMOTE_FRAG,
        t.pass,
        SIZE,
    );
    let img = draw_three_vertices(h, &t, &desc, [0.0; 4])?;
    let mut result = CaseResult::new();
    let mut wrong = Vec::new();
    for y in 0..SIZE.1 {
        for x in 0..SIZE.0 {
            let (got, want) = (pixel(&img, x, y), expected(x, y));
            if got != want && wrong.len() < 8 {
                wrong.push(format!("({x}, {y}) is {got:?}, expected {want:?}"));
            }
        }
    }
    result.require(wrong.is_empty(), wrong.join("; "));
    result.keep_exact("rgba8", img);
    Ok(result)
}
