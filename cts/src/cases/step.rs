//! The chain step many synchronisation cases use (`shaders/step.comp`):
//! each output word depends on two input words, one of them usually written
//! by another workgroup, so a missing or weak dependency shows.

use super::pseudo_random::Sequence;
use crate::bytes::to_bytes;
use crate::case::Stop;
use crate::harness::{
    Bind, Buffer, ComputePipeline, Dependency, Harness, PipelineDesc, Recorder, Slot,
};
use crate::shaders;
use ash::vk;

/// Words per buffer: eight workgroups of 64.
pub const WORDS: usize = 512;

/// What one step computes from `previous` in round `round`.
pub fn step(previous: &[u32], round: u32) -> Vec<u32> {
    let n = previous.len();
    (0..n)
        .map(|i| {
            previous[i]
                .wrapping_mul(3)
                .wrapping_add(previous[(i + 65) % n])
                .wrapping_add(round)
        })
        .collect()
}

/// The step pipeline: set 0 = (input, output), a 4-byte push constant.
pub fn pipeline(h: &mut Harness) -> Result<ComputePipeline, Stop> {
    let sets: &[&[Slot]] = &[&[Slot::STORAGE, Slot::STORAGE]];
    h.pipeline(&PipelineDesc::new(&shaders::STEP, sets).push_constants(4))
}

/// A descriptor set reading `from` and writing `to`.
pub fn set(
    h: &mut Harness,
    pipeline: &ComputePipeline,
    from: &Buffer,
    to: &Buffer,
) -> Result<vk::DescriptorSet, Stop> {
    h.descriptor_set(pipeline, 0, &[Bind::whole(from), Bind::whole(to)])
}

/// A host buffer of `WORDS` words for the chain.
pub fn buffer(h: &mut Harness, words: Option<&[u32]>) -> Result<Buffer, Stop> {
    let usage = vk::BufferUsageFlags::STORAGE_BUFFER;
    match words {
        Some(w) => h.host_buffer_with(usage, &to_bytes(w)),
        None => h.host_buffer(4 * WORDS as u64, usage),
    }
}

/// Records one step with `set` in round `round`.
pub fn record(r: &Recorder<'_>, pipeline: &ComputePipeline, set: vk::DescriptorSet, round: u32) {
    r.bind(pipeline, &[set]);
    r.push_constants(pipeline, 0, &to_bytes(&[round]));
    r.dispatch(WORDS as u32 / 64, 1, 1);
}

/// One step, A to B in round `round`, recorded in one command buffer and
/// made visible to the host: work for cases about what orders a submission.
pub struct Single {
    pub b: Buffer,
    pub command: vk::CommandBuffer,
    /// What B holds after the step.
    pub want: Vec<u32>,
}

/// A [`Single`] from inputs drawn with `seed`.
pub fn single(h: &mut Harness, seed: u64, round: u32) -> Result<Single, Stop> {
    let initial = Sequence::new(seed).u32s(WORDS);
    let a = buffer(h, Some(&initial))?;
    let b = buffer(h, None)?;
    let pipeline = pipeline(h)?;
    let a_to_b = set(h, &pipeline, &a, &b)?;
    let command = h.record(|r| {
        record(r, &pipeline, a_to_b, round);
        r.barrier(Dependency::TO_HOST);
    })?;
    Ok(Single {
        b,
        command,
        want: step(&initial, round),
    })
}

/// Three steps recorded in three command buffers: A to B (round 1), B to C
/// (round 2), C back to A (round 3, then made visible to the host). The
/// cases submit them with different synchronisation in between.
pub struct Chain {
    pub a: Buffer,
    pub commands: [vk::CommandBuffer; 3],
    /// What A holds after the three steps.
    pub want: Vec<u32>,
}

/// A [`Chain`] from inputs drawn with `seed`. With `barriers`, the second
/// and third command buffers start with a compute-to-compute barrier.
pub fn chain(h: &mut Harness, seed: u64, barriers: bool) -> Result<Chain, Stop> {
    let initial = Sequence::new(seed).u32s(WORDS);
    let a = buffer(h, Some(&initial))?;
    let b = buffer(h, None)?;
    let c = buffer(h, None)?;
    let pipeline = pipeline(h)?;
    let sets = [
        set(h, &pipeline, &a, &b)?,
        set(h, &pipeline, &b, &c)?,
        set(h, &pipeline, &c, &a)?,
    ];
    let mut commands = [vk::CommandBuffer::null(); 3];
    for (round, command) in commands.iter_mut().enumerate() {
        *command = h.record(|r| {
            if barriers && round > 0 {
                r.barrier(Dependency::COMPUTE_TO_COMPUTE);
            }
            record(r, &pipeline, sets[round], round as u32 + 1);
            if round == 2 {
                r.barrier(Dependency::TO_HOST);
            }
        })?;
    }
    let want = (1..4).fold(initial, |words, round| step(&words, round));
    Ok(Chain { a, commands, want })
}
