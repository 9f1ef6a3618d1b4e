//! Atomic operations on storage buffer words, many invocations per word.
//! Only what does not depend on the order the atomics were served in is
//! compared (final values, and returned values once sorted).

use super::pseudo_random::Sequence;
use crate::bytes::to_bytes;
use crate::case::{Case, CaseResult, Stop};
use crate::harness::{Bind, Harness, Slot};
use crate::shaders::{self, Shader};
use ash::vk;

pub const CASES: &[Case] = &[
    Case {
        name: "atomics.counter",
        run: counter,
    },
    Case {
        name: "atomics.unsigned_ops",
        run: unsigned_ops,
    },
    Case {
        name: "atomics.signed_min_max",
        run: signed_min_max,
    },
    Case {
        name: "atomics.compswap_exchange",
        run: compswap_exchange,
    },
];

const STORAGE: vk::BufferUsageFlags = vk::BufferUsageFlags::STORAGE_BUFFER;

/// Runs `shader` over `groups` workgroups with `first` at binding 0 and
/// `second` at binding 1; returns both buffers' contents afterwards.
pub(super) fn run_two(
    h: &mut Harness,
    shader: &Shader,
    first: &[u8],
    second: &[u8],
    groups: u32,
) -> Result<(Vec<u32>, Vec<u32>), Stop> {
    let a = h.host_buffer_with(STORAGE, first)?;
    let b = h.host_buffer_with(STORAGE, second)?;
    let pipeline = h.compute(shader, &[&[Slot::STORAGE, Slot::STORAGE]])?;
    let set = h.descriptor_set(&pipeline, 0, &[Bind::whole(&a), Bind::whole(&b)])?;
    h.dispatch_and_wait(&pipeline, &[set], [groups, 1, 1])?;
    Ok((h.read_as(&a)?, h.read_as(&b)?))
}

/// 1024 invocations take tickets from one counter.
fn counter(h: &mut Harness) -> Result<CaseResult, Stop> {
    const N: u32 = 1024;
    let (count, mut tickets) = run_two(
        h,
        &shaders::ATOMIC_COUNTER,
        &to_bytes(&[0u32]),
        &vec![0xa5; 4 * N as usize],
        N / 64,
    )?;
    tickets.sort_unstable();
    let mut result = CaseResult::new();
    result.check("counter", &count, &[N]);
    result.check("tickets_sorted", &tickets, &(0..N).collect::<Vec<_>>());
    Ok(result)
}

/// 256 invocations apply min, max, and, or, xor and add to four groups of
/// eight words.
fn unsigned_ops(h: &mut Harness) -> Result<CaseResult, Stop> {
    let values = Sequence::new(31).u32s(256);
    let initial: Vec<u32> = (0..4)
        .flat_map(|_| [u32::MAX, 0, 0, u32::MAX, 0, 0, 0, 0])
        .collect();
    let mut want = initial.clone();
    for (i, v) in values.iter().enumerate() {
        let w = &mut want[8 * (i % 4)..8 * (i % 4) + 8];
        w[0] = w[0].min(*v);
        w[1] = w[1].max(*v);
        w[2] = w[2].max(v & 0xffff);
        w[3] &= v | 0x00ff_00ff;
        w[4] |= 1 << (v % 32);
        w[5] ^= v;
        w[6] = w[6].wrapping_add(*v);
        w[7] += 1;
    }
    let (_, slots) = run_two(
        h,
        &shaders::ATOMIC_OPS,
        &to_bytes(&values),
        &to_bytes(&initial),
        4,
    )?;
    let mut result = CaseResult::new();
    result.check("slots", &slots, &want);
    Ok(result)
}

/// Signed min and max over 256 values of both signs.
fn signed_min_max(h: &mut Harness) -> Result<CaseResult, Stop> {
    let values: Vec<i32> = Sequence::new(32)
        .u32s(256)
        .iter()
        .map(|v| *v as i32)
        .collect();
    let want = [
        *values.iter().min().unwrap_or(&0) as u32,
        *values.iter().max().unwrap_or(&0) as u32,
    ];
    let (_, slots) = run_two(
        h,
        &shaders::ATOMIC_SIGNED,
        &to_bytes(&values),
        &to_bytes(&[i32::MAX, i32::MIN]),
        4,
    )?;
    let mut result = CaseResult::new();
    result.check("slots", &slots, &want);
    Ok(result)
}

/// Compare-and-swap elects exactly one invocation per slot; exchange
/// returns every value written exactly once.
fn compswap_exchange(h: &mut Harness) -> Result<CaseResult, Stop> {
    const N: u32 = 256;
    let (slots, results) = run_two(
        h,
        &shaders::ATOMIC_EXCHANGE,
        &[0; 4 * 17],
        &vec![0xa5; 8 * N as usize],
        N / 64,
    )?;
    let (token, slots) = (slots[0], &slots[1..]);
    let mut result = CaseResult::new();
    let mut winners = [0u32; 16];
    for i in 0..N {
        let won = results[2 * i as usize];
        result.require(won <= 1, format!("invocation {i} reports won = {won}"));
        if won == 1 {
            winners[(i % 16) as usize] += 1;
            result.require(
                slots[(i % 16) as usize] == i + 1,
                format!(
                    "invocation {i} won slot {} but it holds {}",
                    i % 16,
                    slots[(i % 16) as usize]
                ),
            );
        }
    }
    result.check("winners_per_slot", &winners, &[1; 16]);
    let mut exchanged: Vec<u32> = (0..N as usize).map(|i| results[2 * i + 1]).collect();
    exchanged.push(token);
    exchanged.sort_unstable();
    result.check("exchanged_sorted", &exchanged, &(0..=N).collect::<Vec<_>>());
    Ok(result)
}
