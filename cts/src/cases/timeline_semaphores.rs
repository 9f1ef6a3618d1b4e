//! Timeline semaphores: ordering submissions on the device, host signals
//! and waits, timeouts, and vkQueueSubmit2.

use super::pseudo_random::Sequence;
use super::step::{self, step, WORDS};
use crate::case::{Case, CaseResult, OrStop, Stop};
use crate::harness::{Harness, Submission, WAIT_TIMEOUT_NS};
use ash::vk;

pub const CASES: &[Case] = &[
    Case {
        name: "timeline_semaphores.across_submits",
        run: across_submits,
    },
    Case {
        name: "timeline_semaphores.host_signal",
        run: host_signal,
    },
    Case {
        name: "timeline_semaphores.host_waits",
        run: host_waits,
    },
    Case {
        name: "timeline_semaphores.submit2",
        run: submit2,
    },
];

const COMPUTE: vk::PipelineStageFlags = vk::PipelineStageFlags::COMPUTE_SHADER;

/// A chain of three steps in three submissions (two queue submits), each
/// waiting on the value the previous one signals. The semaphore is the only
/// dependency between them: no pipeline barrier.
fn across_submits(h: &mut Harness) -> Result<CaseResult, Stop> {
    let timeline = h.timeline_semaphore(0)?;
    let chain = step::chain(h, 61, false)?;
    let [first, second, third] = chain.commands;
    h.submit(
        &[
            Submission {
                commands: &[first],
                signals: &[(timeline, 1)],
                ..Default::default()
            },
            Submission {
                commands: &[second],
                waits: &[(timeline, 1, COMPUTE)],
                signals: &[(timeline, 2)],
            },
        ],
        vk::Fence::null(),
    )?;
    h.submit(
        &[Submission {
            commands: &[third],
            waits: &[(timeline, 2, COMPUTE)],
            signals: &[(timeline, 3)],
        }],
        vk::Fence::null(),
    )?;
    h.timeline()?
        .wait(&[timeline], &[3], true, WAIT_TIMEOUT_NS)
        .or_stop("vkWaitSemaphores")?;
    let value = h
        .timeline()?
        .value(timeline)
        .or_stop("vkGetSemaphoreCounterValue")?;
    let mut result = CaseResult::new();
    result.require(
        value == 3,
        format!("the counter is {value} after the last signal of 3"),
    );
    result.check("chain", &h.read_as::<u32>(&chain.a)?, &chain.want);
    Ok(result)
}

/// The counter of `timeline` once `fence` and the signal of `signalled`
/// in the same submission have happened. The specification orders a
/// submission's fence signal after its semaphore signals, but lavapipe 22.3
/// may signal the fence first: the case waits for both.
fn counter_after(
    h: &Harness,
    fence: vk::Fence,
    timeline: vk::Semaphore,
    signalled: u64,
) -> Result<u64, Stop> {
    h.wait_for(fence)?;
    let api = h.timeline()?;
    api.wait(&[timeline], &[signalled], true, WAIT_TIMEOUT_NS)
        .or_stop("vkWaitSemaphores")?;
    api.value(timeline).or_stop("vkGetSemaphoreCounterValue")
}

/// A submission waits for a value only the host signals, later: until then
/// its fence must stay unsignalled.
fn host_signal(h: &mut Harness) -> Result<CaseResult, Stop> {
    let timeline = h.timeline_semaphore(0)?;
    let work = step::single(h, 62, 4)?;
    let fence = h.fence(false)?;
    h.submit(
        &[Submission {
            commands: &[work.command],
            waits: &[(timeline, 5, COMPUTE)],
            signals: &[(timeline, 6)],
        }],
        fence,
    )?;
    // SAFETY: the fence is alive.
    let early = unsafe { h.device().get_fence_status(fence) }.or_stop("vkGetFenceStatus")?;
    h.timeline()?
        .signal(timeline, 5)
        .or_stop("vkSignalSemaphore")?;
    let value = counter_after(h, fence, timeline, 6)?;
    let mut result = CaseResult::new();
    result.require(
        !early,
        "the fence signalled before the semaphore the work waits for",
    );
    result.require(
        value == 6,
        format!("the counter is {value}, not the 6 signalled"),
    );
    result.check("output", &h.read_as::<u32>(&work.b)?, &work.want);
    Ok(result)
}

fn code<T>(r: ash::prelude::VkResult<T>) -> i32 {
    match r {
        Ok(_) => vk::Result::SUCCESS.as_raw(),
        Err(e) => e.as_raw(),
    }
}

/// Host waits: already reached (SUCCESS), not reached (TIMEOUT with no or a
/// short timeout), any versus all of two semaphores.
fn host_waits(h: &mut Harness) -> Result<CaseResult, Stop> {
    let t = h.timeline_semaphore(7)?;
    let u = h.timeline_semaphore(0)?;
    let api = h.timeline()?;
    let initial = api.value(t).or_stop("vkGetSemaphoreCounterValue")?;
    let codes = [
        code(api.wait(&[t], &[7], true, 0)),
        code(api.wait(&[t], &[8], true, 0)),
        code(api.wait(&[t], &[8], true, 1_000_000)),
        code(api.signal(t, 10)),
        code(api.wait(&[t, u], &[10, 1], false, 0)),
        code(api.wait(&[t, u], &[10, 1], true, 0)),
        code(api.signal(u, 1)),
        code(api.wait(&[t, u], &[9, 1], true, 0)),
    ];
    let values = [
        initial,
        api.value(t).or_stop("vkGetSemaphoreCounterValue")?,
        api.value(u).or_stop("vkGetSemaphoreCounterValue")?,
    ];
    let (ok, timeout) = (vk::Result::SUCCESS.as_raw(), vk::Result::TIMEOUT.as_raw());
    let mut result = CaseResult::new();
    result.check(
        "codes",
        &codes,
        &[ok, timeout, timeout, ok, ok, timeout, ok, ok],
    );
    result.check("values", &values, &[7, 10, 1]);
    Ok(result)
}

/// vkQueueSubmit2 with timeline semaphore values and vkCmdPipelineBarrier2.
fn submit2(h: &mut Harness) -> Result<CaseResult, Stop> {
    h.synchronization2()?;
    let timeline = h.timeline_semaphore(0)?;
    let initial = Sequence::new(63).u32s(WORDS);
    let a = step::buffer(h, Some(&initial))?;
    let b = step::buffer(h, None)?;
    let c = step::buffer(h, None)?;
    let pipeline = step::pipeline(h)?;
    let a_to_b = step::set(h, &pipeline, &a, &b)?;
    let b_to_c = step::set(h, &pipeline, &b, &c)?;
    let first = h.record(|r| step::record(r, &pipeline, a_to_b, 8))?;
    let second = {
        // Taken before recording: the recorder borrows the harness.
        let sync2 = h.synchronization2()?.clone();
        h.record(|r| {
            step::record(r, &pipeline, b_to_c, 9);
            let barrier = [vk::MemoryBarrier2::default()
                .src_stage_mask(vk::PipelineStageFlags2::COMPUTE_SHADER)
                .src_access_mask(vk::AccessFlags2::SHADER_STORAGE_WRITE)
                .dst_stage_mask(vk::PipelineStageFlags2::HOST)
                .dst_access_mask(vk::AccessFlags2::HOST_READ)];
            let dependency = vk::DependencyInfo::default().memory_barriers(&barrier);
            // SAFETY: the command buffer is recording; `dependency` names no handle.
            unsafe { sync2.pipeline_barrier(r.command_buffer(), &dependency) };
        })?
    };
    let fence = h.fence(false)?;
    let signal = |value| {
        [vk::SemaphoreSubmitInfo::default()
            .semaphore(timeline)
            .value(value)
            .stage_mask(vk::PipelineStageFlags2::ALL_COMMANDS)]
    };
    let wait = [vk::SemaphoreSubmitInfo::default()
        .semaphore(timeline)
        .value(1)
        .stage_mask(vk::PipelineStageFlags2::COMPUTE_SHADER)];
    let (signal1, signal2) = (signal(1), signal(2));
    let commands1 = [vk::CommandBufferSubmitInfo::default().command_buffer(first)];
    let commands2 = [vk::CommandBufferSubmitInfo::default().command_buffer(second)];
    let submits = [
        vk::SubmitInfo2::default()
            .command_buffer_infos(&commands1)
            .signal_semaphore_infos(&signal1),
        vk::SubmitInfo2::default()
            .wait_semaphore_infos(&wait)
            .command_buffer_infos(&commands2)
            .signal_semaphore_infos(&signal2),
    ];
    // SAFETY: the command buffers, semaphore and fence are alive and owned
    // by the harness; every array outlives the call.
    unsafe { h.synchronization2()?.submit(h.queue(), &submits, fence) }
        .or_stop("vkQueueSubmit2")?;
    let value = counter_after(h, fence, timeline, 2)?;
    let mut result = CaseResult::new();
    result.require(
        value == 2,
        format!("the counter is {value} after the last signal of 2"),
    );
    result.check(
        "chain",
        &h.read_as::<u32>(&c)?,
        &step(&step(&initial, 8), 9),
    );
    Ok(result)
}
