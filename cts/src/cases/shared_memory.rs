//! Workgroup shared memory: exchanges between invocations across
//! `barrier()`, reductions, the full 16 KiB, and shared atomics.

use super::one_dispatch::check_one_dispatch;
use super::pseudo_random::Sequence;
use crate::bytes::to_bytes;
use crate::case::{Case, CaseResult, Stop};
use crate::harness::Harness;
use crate::shaders;

pub const CASES: &[Case] = &[
    Case {
        name: "shared_memory.mirror",
        run: mirror,
    },
    Case {
        name: "shared_memory.reduction",
        run: reduction,
    },
    Case {
        name: "shared_memory.all_16k",
        run: all_16k,
    },
    Case {
        name: "shared_memory.atomics",
        run: atomics,
    },
    Case {
        name: "shared_memory.atomics_across_barriers",
        run: atomics_across_barriers,
    },
    Case {
        name: "shared_memory.many_values_across_a_barrier",
        run: many_values_across_a_barrier,
    },
    Case {
        name: "shared_memory.null_initializers",
        run: null_initializers,
    },
];

/// Two workgroups of 128: each invocation reads its mirror's value.
fn mirror(h: &mut Harness) -> Result<CaseResult, Stop> {
    let values = Sequence::new(21).u32s(256);
    let want: Vec<u32> = (0..256)
        .map(|i| values[(i / 128) * 128 + 127 - i % 128])
        .collect();
    check_one_dispatch(h, &shaders::SHARED_REVERSE, &to_bytes(&values), &want, 2)
}

/// Four workgroups of 256 reduce their values to a sum and a maximum.
fn reduction(h: &mut Harness) -> Result<CaseResult, Stop> {
    let values = Sequence::new(22).u32s(1024);
    let want: Vec<u32> = values
        .chunks(256)
        .flat_map(|g| {
            [
                g.iter().fold(0u32, |a, v| a.wrapping_add(*v)),
                *g.iter().max().unwrap_or(&0),
            ]
        })
        .collect();
    check_one_dispatch(h, &shaders::SHARED_REDUCTION, &to_bytes(&values), &want, 4)
}

/// Two workgroups, each filling and reading all of a 16 KiB shared array.
fn all_16k(h: &mut Harness) -> Result<CaseResult, Stop> {
    if h.properties().limits.max_compute_shared_memory_size < 16384 {
        return Ok(CaseResult::failed(
            "maxComputeSharedMemorySize is below the required 16384",
        ));
    }
    let seeds = [0x1234_5678u32, 0x9abc_def1];
    let mut want = Vec::new();
    for seed in seeds {
        for l in 0..256u32 {
            for k in 0..4 {
                let slot = (4 * l + k + 513) & 1023;
                want.extend([slot, seed, slot ^ seed, slot.wrapping_mul(seed)]);
            }
        }
    }
    check_one_dispatch(h, &shaders::SHARED_16K, &to_bytes(&seeds), &want, 2)
}

/// Two workgroups of 128 apply add, min, max, or, and, xor to shared words.
fn atomics(h: &mut Harness) -> Result<CaseResult, Stop> {
    let values = Sequence::new(23).u32s(256);
    let want: Vec<u32> = values
        .chunks(128)
        .flat_map(|g| {
            [
                g.iter().fold(0u32, |a, v| a.wrapping_add(*v)),
                *g.iter().min().unwrap_or(&0),
                g.iter().map(|v| *v as i32).max().unwrap_or(0) as u32,
                g.iter().fold(0, |a, v| a | 1 << (v & 31)),
                g.iter().fold(u32::MAX, |a, v| a & (v | 0x0f0f_0f0f)),
                g.iter().fold(0, |a, v| a ^ v),
            ]
        })
        .collect();
    check_one_dispatch(h, &shaders::SHARED_ATOMICS, &to_bytes(&values), &want, 2)
}

/// Four workgroups of 3: one invocation exchanges 7 into a shared word, all
/// three add 1 after a barrier, and after another the first exchanges it out.
fn atomics_across_barriers(h: &mut Harness) -> Result<CaseResult, Stop> {
    check_one_dispatch(h, &shaders::SHARED_ATOMICS_BARRIER, &[0; 4], &[10u32; 4], 4)
}

/// Two workgroups of 672, each invocation holding 48 words across a barrier:
/// it publishes their sum, and folds its neighbour's sum with all of them.
fn many_values_across_a_barrier(h: &mut Harness) -> Result<CaseResult, Stop> {
    const SIZE: usize = 672;
    if h.properties().limits.max_compute_work_group_invocations < SIZE as u32 {
        return Err(Stop::NotSupported("672 invocations per workgroup".into()));
    }
    let words = Sequence::new(24).u32s(48 * 2 * SIZE);
    let sums: Vec<u32> = words
        .chunks(48)
        .map(|v| v.iter().fold(0u32, |s, x| s.wrapping_add(*x)))
        .collect();
    let want: Vec<u32> = (0..2 * SIZE)
        .map(|g| {
            let group = g / SIZE * SIZE;
            let mut acc = sums[group + (g - group + 1) % SIZE];
            for k in (0..48).rev() {
                acc = acc.wrapping_mul(5).wrapping_add(words[48 * g + k]);
            }
            acc
        })
        .collect();
    check_one_dispatch(
        h,
        &shaders::BARRIER_MANY_VALUES,
        &to_bytes(&words),
        &want,
        2,
    )
}

/// Four workgroups of 64 count their values in null-initialised shared
/// memory (shaderZeroInitializeWorkgroupMemory).
fn null_initializers(h: &mut Harness) -> Result<CaseResult, Stop> {
    if !h.caps().zero_initialize_workgroup_memory {
        return Err(Stop::NotSupported(
            "shaderZeroInitializeWorkgroupMemory".into(),
        ));
    }
    let values: Vec<u32> = Sequence::new(25)
        .u32s(256)
        .iter()
        .map(|v| v % 1000)
        .collect();
    let mut want = Vec::new();
    for group in values.chunks(64) {
        let mut counts = [0u32; 302];
        for v in group {
            counts[(v % 300) as usize] += 1;
            counts[300] = counts[300].wrapping_add(*v);
        }
        want.extend_from_slice(&counts);
    }
    check_one_dispatch(
        h,
        &shaders::SHARED_NULL_INITIALIZER,
        &to_bytes(&values),
        &want,
        4,
    )
}
