//! Fences, binary semaphores and events: their host-visible states and the
//! ordering they give.

use super::pseudo_random::Sequence;
use super::step::{self, step, WORDS};
use crate::case::{Case, CaseResult, OrStop, Stop};
use crate::harness::{Dependency, Harness, Submission};
use ash::prelude::VkResult;
use ash::vk;

pub const CASES: &[Case] = &[
    Case {
        name: "fences.status_wait_reset",
        run: fence_states,
    },
    Case {
        name: "semaphores.binary_chain",
        run: binary_chain,
    },
    Case {
        name: "events.device_set_and_wait",
        run: device_set_and_wait,
    },
    Case {
        name: "events.host_and_device_states",
        run: event_states,
    },
];

const SUCCESS: i32 = vk::Result::SUCCESS.as_raw();
const NOT_READY: i32 = vk::Result::NOT_READY.as_raw();
const TIMEOUT: i32 = vk::Result::TIMEOUT.as_raw();
const EVENT_SET: i32 = vk::Result::EVENT_SET.as_raw();
const EVENT_RESET: i32 = vk::Result::EVENT_RESET.as_raw();

/// The result code of a call ash reports as a `Result`.
fn code<T>(r: VkResult<T>) -> i32 {
    match r {
        Ok(_) => SUCCESS,
        Err(e) => e.as_raw(),
    }
}

/// The code `vkGetFenceStatus` returned.
fn fence_status(h: &Harness, fence: vk::Fence) -> i32 {
    // SAFETY: the fence is alive (owned by the harness).
    match unsafe { h.device().get_fence_status(fence) } {
        Ok(true) => SUCCESS,
        Ok(false) => NOT_READY,
        Err(e) => e.as_raw(),
    }
}

/// The code `vkGetEventStatus` returned.
fn event_status(h: &Harness, event: vk::Event) -> i32 {
    // SAFETY: the event is alive (owned by the harness).
    match unsafe { h.device().get_event_status(event) } {
        Ok(true) => EVENT_SET,
        Ok(false) => EVENT_RESET,
        Err(e) => e.as_raw(),
    }
}

/// Fence states through creation, waits with no timeout, reset, an empty
/// submission and one with work.
fn fence_states(h: &mut Harness) -> Result<CaseResult, Stop> {
    let unsignalled = h.fence(false)?;
    let signalled = h.fence(true)?;
    let work = step::single(h, 71, 3)?;

    let d = h.device().clone();
    let mut codes = vec![fence_status(h, unsignalled), fence_status(h, signalled)];
    // SAFETY (this block and the waits below): the fences are alive.
    unsafe {
        codes.push(code(d.wait_for_fences(&[unsignalled], true, 0)));
        codes.push(code(d.wait_for_fences(&[unsignalled, signalled], false, 0)));
        codes.push(code(d.wait_for_fences(&[unsignalled, signalled], true, 0)));
        codes.push(code(d.reset_fences(&[signalled])));
    }
    codes.push(fence_status(h, signalled));
    // No batch at all: the fence signals once earlier work is done.
    h.submit(&[], unsignalled)?;
    h.wait_for(unsignalled)?;
    codes.push(fence_status(h, unsignalled));
    h.submit(
        &[Submission {
            commands: &[work.command],
            ..Default::default()
        }],
        signalled,
    )?;
    h.wait_for(signalled)?;
    codes.push(fence_status(h, signalled));

    let mut result = CaseResult::new();
    result.check(
        "codes",
        &codes,
        &[
            NOT_READY, SUCCESS, TIMEOUT, SUCCESS, TIMEOUT, SUCCESS, NOT_READY, SUCCESS, SUCCESS,
        ],
    );
    result.check("output", &h.read_as::<u32>(&work.b)?, &work.want);
    Ok(result)
}

/// Three queue submissions chained by one binary semaphore, signalled and
/// waited twice; no pipeline barrier between the steps.
fn binary_chain(h: &mut Harness) -> Result<CaseResult, Stop> {
    let semaphore = h.binary_semaphore()?;
    let chain = step::chain(h, 72, false)?;
    let [first, second, third] = chain.commands;
    let compute = vk::PipelineStageFlags::COMPUTE_SHADER;
    let fence = h.fence(false)?;
    h.submit(
        &[Submission {
            commands: &[first],
            signals: &[(semaphore, 0)],
            ..Default::default()
        }],
        vk::Fence::null(),
    )?;
    h.submit(
        &[Submission {
            commands: &[second],
            waits: &[(semaphore, 0, compute)],
            signals: &[(semaphore, 0)],
        }],
        vk::Fence::null(),
    )?;
    h.submit(
        &[Submission {
            commands: &[third],
            waits: &[(semaphore, 0, compute)],
            ..Default::default()
        }],
        fence,
    )?;
    h.wait_for(fence)?;
    let mut result = CaseResult::new();
    result.check("chain", &h.read_as::<u32>(&chain.a)?, &chain.want);
    Ok(result)
}

/// One command buffer: a step, vkCmdSetEvent, vkCmdWaitEvents with a
/// memory barrier, the next step; it first waits for an event the host set
/// before submitting.
fn device_set_and_wait(h: &mut Harness) -> Result<CaseResult, Stop> {
    let event = h.event()?;
    let host_event = h.event()?;
    let initial = Sequence::new(73).u32s(WORDS);
    let a = step::buffer(h, Some(&initial))?;
    let b = step::buffer(h, None)?;
    let c = step::buffer(h, None)?;
    let pipeline = step::pipeline(h)?;
    let a_to_b = step::set(h, &pipeline, &a, &b)?;
    let b_to_c = step::set(h, &pipeline, &b, &c)?;
    let compute = vk::PipelineStageFlags::COMPUTE_SHADER;
    // SAFETY: the event is alive and not used by pending work.
    unsafe { h.device().set_event(host_event) }.or_stop("vkSetEvent")?;
    h.run(|r| {
        let (d, cmd) = (r.device(), r.command_buffer());
        let barrier = [vk::MemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::SHADER_WRITE)
            .dst_access_mask(vk::AccessFlags::SHADER_READ | vk::AccessFlags::SHADER_WRITE)];
        // SAFETY: the command buffer is recording; the events are alive.
        unsafe {
            d.cmd_wait_events(
                cmd,
                &[host_event],
                vk::PipelineStageFlags::HOST,
                compute,
                &[],
                &[],
                &[],
            );
        }
        step::record(r, &pipeline, a_to_b, 1);
        // SAFETY: as above.
        unsafe {
            d.cmd_set_event(cmd, event, compute);
            d.cmd_wait_events(cmd, &[event], compute, compute, &barrier, &[], &[]);
        }
        step::record(r, &pipeline, b_to_c, 2);
        r.barrier(Dependency::TO_HOST);
    })?;
    let mut codes = vec![event_status(h, event)];
    // SAFETY: the event is alive and its command buffer has completed.
    codes.push(code(unsafe { h.device().reset_event(event) }));
    codes.push(event_status(h, event));
    let mut result = CaseResult::new();
    result.check("codes", &codes, &[EVENT_SET, SUCCESS, EVENT_RESET]);
    result.check(
        "chain",
        &h.read_as::<u32>(&c)?,
        &step(&step(&initial, 1), 2),
    );
    Ok(result)
}

/// Event states set and reset by the host and by command buffers.
fn event_states(h: &mut Harness) -> Result<CaseResult, Stop> {
    let event = h.event()?;
    let compute = vk::PipelineStageFlags::COMPUTE_SHADER;
    let reset_cmd = h.record(|r| {
        // SAFETY: the command buffer is recording; the event is alive.
        unsafe {
            r.device()
                .cmd_reset_event(r.command_buffer(), event, compute)
        };
    })?;
    let set_cmd = h.record(|r| {
        // SAFETY: as above.
        unsafe { r.device().cmd_set_event(r.command_buffer(), event, compute) };
    })?;
    let d = h.device().clone();
    let mut codes = vec![event_status(h, event)];
    // SAFETY: the event is alive and no pending work uses it.
    codes.push(code(unsafe { d.set_event(event) }));
    codes.push(event_status(h, event));
    h.submit_and_wait(&[reset_cmd])?;
    codes.push(event_status(h, event));
    h.submit_and_wait(&[set_cmd])?;
    codes.push(event_status(h, event));
    // SAFETY: as above; the command buffers have completed.
    codes.push(code(unsafe { d.reset_event(event) }));
    codes.push(event_status(h, event));
    let mut result = CaseResult::new();
    result.check(
        "codes",
        &codes,
        &[
            EVENT_RESET,
            SUCCESS,
            EVENT_SET,
            EVENT_RESET,
            EVENT_SET,
            SUCCESS,
            EVENT_RESET,
        ],
    );
    Ok(result)
}
