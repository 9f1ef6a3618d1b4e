//! Subgroup operations in a compute shader, checked against the CPU for the
//! device's subgroup size: the built-ins, elect, votes, ballots, broadcasts,
//! reductions and scans, quad swaps, and a reduction in a divergent branch.
//! The outputs depend on the subgroup size (lavapipe's is not Parsnip's), so
//! they are checked here and not compared between drivers.

use super::pseudo_random::Sequence;
use crate::bytes::{from_bytes, to_bytes};
use crate::case::{Case, CaseResult, Stop};
use crate::harness::Harness;
use crate::shaders;
use ash::vk;

pub const CASES: &[Case] = &[
    Case {
        name: "subgroups.compute_operations",
        run: compute_operations,
    },
    Case {
        name: "subgroups.shuffles",
        run: shuffles,
    },
];

const GROUP: usize = 128;
const GROUPS: u32 = 2;
const N: usize = GROUP * GROUPS as usize;
const WORDS: usize = 24;

/// What invocation `i` writes, with subgroups of `size` cut from the local
/// index in order.
fn expected(v: &[u32], size: usize) -> Vec<u32> {
    let mut out = Vec::with_capacity(N * WORDS);
    for i in 0..v.len() {
        let (start, lane) = (i / size * size, i % size);
        let sg = &v[start..start + size];
        let odd: Vec<bool> = sg.iter().map(|y| y & 1 != 0).collect();
        let mut ballot = [0u32; 4];
        for (l, _) in odd.iter().enumerate().filter(|(_, o)| **o) {
            ballot[l / 32] |= 1 << (l % 32);
        }
        let count = odd.iter().filter(|o| **o).count() as u32;
        let before = odd[..lane].iter().filter(|o| **o).count() as u32;
        let lsb = odd.iter().position(|o| *o).map_or(u32::MAX, |p| p as u32);
        let quad = lane & !3;
        let active_sum = (0..size)
            .filter(|&l| odd[l])
            .fold(0u32, |a, l| a.wrapping_add(sg[l]));
        out.extend_from_slice(&[
            size as u32,
            lane as u32,
            ((i % GROUP) / size) as u32,
            GROUP.div_ceil(size) as u32,
            u32::from(lane == 0)
                | u32::from(sg.contains(&7)) << 1
                | u32::from(sg.iter().all(|&y| y < 500)) << 2
                | u32::from(sg.iter().all(|&y| y == sg[0])) << 3,
            ballot[0],
            ballot[1],
            ballot[2],
            ballot[3],
            count | before << 8 | lsb.wrapping_shl(16),
            sg[0],
            sg[3],
            sg.iter().fold(0u32, |a, &y| a.wrapping_add(y)),
            sg[..=lane].iter().fold(1u32, |a, &y| a.wrapping_mul(y | 1)),
            sg[..lane].iter().copied().max().unwrap_or(0),
            *sg.iter().min().expect("a subgroup has invocations"),
            sg[..=lane].iter().fold(0, |a, &y| a ^ y),
            sg.iter().fold(0, |a, &y| a | y),
            // From +0.0, the identity SPIR-V gives FAdd (Rust's `sum` starts
            // from -0.0).
            sg[..lane]
                .iter()
                .fold(0.0f32, |a, &y| a + (y & 63) as f32)
                .to_bits(),
            sg.iter().map(|&y| y as i32 - 300).max().unwrap_or(0) as u32,
            sg[lane ^ 1],
            sg[lane ^ 3],
            sg[quad + 1],
            if odd[lane] {
                active_sum.wrapping_add((before + 1) * 100_000)
            } else {
                0
            },
        ]);
    }
    out
}

/// The subgroup size, when compute shaders have the operations `needed` (not
/// supported otherwise), or a failed result when the size does not divide a
/// work group of `group`.
fn subgroup_size_for(
    h: &Harness,
    needed: vk::SubgroupFeatureFlags,
    group: usize,
) -> Result<Result<usize, CaseResult>, Stop> {
    let (size, stages, ops) = h.subgroup_properties();
    if !stages.contains(vk::ShaderStageFlags::COMPUTE) || !ops.contains(needed) {
        return Err(Stop::NotSupported(format!(
            "subgroup operations {needed:?} in compute shaders"
        )));
    }
    let size = size as usize;
    if size < 4 || !group.is_multiple_of(size) {
        return Ok(Err(CaseResult::failed(format!(
            "subgroupSize {size} does not divide a work group of {group}"
        ))));
    }
    Ok(Ok(size))
}

fn compute_operations(h: &mut Harness) -> Result<CaseResult, Stop> {
    let needed = vk::SubgroupFeatureFlags::BASIC
        | vk::SubgroupFeatureFlags::VOTE
        | vk::SubgroupFeatureFlags::BALLOT
        | vk::SubgroupFeatureFlags::ARITHMETIC
        | vk::SubgroupFeatureFlags::QUAD;
    let size = match subgroup_size_for(h, needed, GROUP)? {
        Ok(size) => size,
        Err(failed) => return Ok(failed),
    };
    let mut seq = Sequence::new(31);
    // Subgroups of all-equal inputs, some holding a 7, some an input of 500 or more.
    let input: Vec<u32> = (0..N)
        .map(|i| match (i / size) % 4 {
            0 => 42,
            1 if i % size == 2 => 7,
            2 if i % size == 1 => 900,
            _ => seq.below(400),
        })
        .collect();
    let got = super::one_dispatch::one_dispatch(
        h,
        &shaders::SUBGROUPS,
        &to_bytes(&input),
        (N * WORDS * 4) as u64,
        GROUPS,
    )?;
    let mut result = CaseResult::new();
    result.check_unshared("results", &from_bytes::<u32>(&got), &expected(&input, size));
    Ok(result)
}

/// Shuffles (SHUFFLE and SHUFFLE_RELATIVE) over two work groups of 128, to
/// an invocation that differs per invocation, by xor, up and down, and in a
/// divergent branch.
fn shuffles(h: &mut Harness) -> Result<CaseResult, Stop> {
    use super::subgroup_shuffle_expectation::{expected, WORDS};
    let needed = vk::SubgroupFeatureFlags::BASIC
        | vk::SubgroupFeatureFlags::BALLOT
        | vk::SubgroupFeatureFlags::SHUFFLE
        | vk::SubgroupFeatureFlags::SHUFFLE_RELATIVE;
    let size = match subgroup_size_for(h, needed, 128)? {
        Ok(size) => size,
        Err(failed) => return Ok(failed),
    };
    let input: Vec<u32> = Sequence::new(67)
        .u32s(256)
        .iter()
        .map(|x| x % 100_000)
        .collect();
    let got = super::one_dispatch::one_dispatch(
        h,
        &shaders::SUBGROUP_SHUFFLE,
        &to_bytes(&input),
        (256 * WORDS * 4) as u64,
        2,
    )?;
    let mut result = CaseResult::new();
    result.check_unshared("results", &from_bytes::<u32>(&got), &expected(&input, size));
    Ok(result)
}
