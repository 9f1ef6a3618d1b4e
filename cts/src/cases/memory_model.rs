//! The Vulkan memory model with device scope (vulkanMemoryModel and
//! vulkanMemoryModelDeviceScope): a release by every invocation of every
//! work group, an acquire-release ticket counter, and the last ticket's
//! holder reading what all of them released.

use super::atomics::run_two;
use crate::bytes::to_bytes;
use crate::case::{Case, CaseResult, Stop};
use crate::harness::Harness;
use crate::shaders;

pub const CASES: &[Case] = &[Case {
    name: "memory_model.last_ticket_sees_every_release",
    run: last_ticket_sees_every_release,
}];

fn last_ticket_sees_every_release(h: &mut Harness) -> Result<CaseResult, Stop> {
    if !h.caps().vulkan_memory_model {
        return Err(Stop::NotSupported(
            "vulkanMemoryModel with vulkanMemoryModelDeviceScope".into(),
        ));
    }
    const GROUPS: u32 = 8;
    const N: u32 = 64 * GROUPS;
    let (counter, data) = run_two(
        h,
        &shaders::MEMORY_MODEL,
        &to_bytes(&[0u32, 0]),
        &vec![0xa5; 4 * N as usize],
        GROUPS,
    )?;
    let want_data: Vec<u32> = (0..N).map(|i| i * 7 + 3).collect();
    let sum = want_data.iter().fold(0u32, |a, v| a.wrapping_add(*v));
    let mut result = CaseResult::new();
    result.check("counter", &counter, &[N, sum]);
    result.check("data", &data, &want_data);
    Ok(result)
}
