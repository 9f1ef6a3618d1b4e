//! A SPIR-V 1.4 module (Vulkan 1.2, or VK_KHR_spirv_1_4), whose OpEntryPoint
//! lists every global variable it uses, mirrored in Rust.

use super::one_dispatch::check_one_dispatch;
use super::pseudo_random::Sequence;
use crate::bytes::to_bytes;
use crate::case::{Case, CaseResult, Stop};
use crate::harness::Harness;
use crate::shaders;

pub const CASES: &[Case] = &[Case {
    name: "spirv_1_4.shared_reverse",
    run: shared_reverse,
}];

const N: usize = 256;

fn shared_reverse(h: &mut Harness) -> Result<CaseResult, Stop> {
    if !h.caps().spirv_1_4 {
        return Err(Stop::NotSupported("SPIR-V 1.4 modules".into()));
    }
    let v = Sequence::new(14).u32s(N);
    let want: Vec<u32> = (0..N)
        .map(|i| {
            let mirror = i / 64 * 64 + 63 - i % 64;
            v[mirror].wrapping_mul(3).wrapping_add(i as u32)
        })
        .collect();
    check_one_dispatch(
        h,
        &shaders::SPIRV14_SHARED,
        &to_bytes(&v),
        &want,
        (N / 64) as u32,
    )
}
