//! A module with non-semantic instructions (VK_KHR_shader_non_semantic_info):
//! a debug printf the driver ignores, around a computation mirrored in Rust.

use super::one_dispatch::check_one_dispatch;
use super::pseudo_random::Sequence;
use crate::bytes::to_bytes;
use crate::case::{Case, CaseResult, Stop};
use crate::harness::Harness;
use crate::shaders;

pub const CASES: &[Case] = &[Case {
    name: "non_semantic.debug_printf_ignored",
    run: debug_printf_ignored,
}];

const N: usize = 128;

fn debug_printf_ignored(h: &mut Harness) -> Result<CaseResult, Stop> {
    if !h.caps().non_semantic_info {
        return Err(Stop::NotSupported("VK_KHR_shader_non_semantic_info".into()));
    }
    let v = Sequence::new(8).u32s(N);
    let want: Vec<u32> = v
        .iter()
        .enumerate()
        .map(|(i, x)| (x ^ 0x5a5a).wrapping_add(i as u32))
        .collect();
    check_one_dispatch(
        h,
        &shaders::NON_SEMANTIC,
        &to_bytes(&v),
        &want,
        (N / 64) as u32,
    )
}
