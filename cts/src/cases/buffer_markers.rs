//! VK_AMD_buffer_marker: markers written between dispatches, copies and
//! fills, through both entry points and at every stage a compute queue
//! may name, each land in its own slot with its own value, and the work
//! between them is not disturbed.
//!
//! lavapipe 22.3 lacks the extension, so the values are the ones worked out
//! here: slot `i` holds `MARKER_BASE + i`, written by the `i`-th marker in
//! recording order.

use super::pseudo_random::Sequence;
use super::step::{self, WORDS};
use crate::case::{Case, CaseResult, Stop};
use crate::harness::{Bind, Dependency, Harness, POISON_WORD};
use ash::vk;

pub const CASES: &[Case] = &[Case {
    name: "markers.compute_and_transfer",
    run: compute_and_transfer,
}];

const MARKER_BASE: u32 = 0x4d00;
/// The fill's value, distinct from every marker.
const FILL: u32 = 0x0bad_cafe;
const FILL_WORDS: usize = 64;

/// What writes a marker: `vkCmdWriteBufferMarkerAMD` with a 1.0 stage, or
/// `vkCmdWriteBufferMarker2AMD` with a synchronization2 stage.
#[derive(Clone, Copy)]
enum Marker {
    V1(vk::PipelineStageFlags),
    V2(vk::PipelineStageFlags2),
}

/// The markers after the dispatch, the copy and the fill, in order; then
/// every other stage a compute queue may name, one marker each.
const AFTER_DISPATCH: &[Marker] = &[
    Marker::V1(vk::PipelineStageFlags::COMPUTE_SHADER),
    Marker::V1(vk::PipelineStageFlags::BOTTOM_OF_PIPE),
];
const AFTER_COPY: &[Marker] = &[
    Marker::V2(vk::PipelineStageFlags2::COPY),
    Marker::V1(vk::PipelineStageFlags::TRANSFER),
];
const AFTER_FILL: &[Marker] = &[
    Marker::V2(vk::PipelineStageFlags2::CLEAR),
    Marker::V2(vk::PipelineStageFlags2::ALL_TRANSFER),
];
const EVERY_OTHER_STAGE: &[Marker] = &[
    Marker::V1(vk::PipelineStageFlags::TOP_OF_PIPE),
    Marker::V1(vk::PipelineStageFlags::DRAW_INDIRECT),
    Marker::V1(vk::PipelineStageFlags::ALL_COMMANDS),
    Marker::V2(vk::PipelineStageFlags2::TOP_OF_PIPE),
    Marker::V2(vk::PipelineStageFlags2::DRAW_INDIRECT),
    Marker::V2(vk::PipelineStageFlags2::COMPUTE_SHADER),
    Marker::V2(vk::PipelineStageFlags2::BOTTOM_OF_PIPE),
    Marker::V2(vk::PipelineStageFlags2::ALL_COMMANDS),
];

/// A top-of-pipe marker before anything, then a dispatch (one chain step),
/// a copy of its output, a fill, each followed by markers, then a marker at
/// each remaining stage. The slots hold their markers' values in recording
/// order; the slot past the last is untouched; the copy and fill are right.
fn compute_and_transfer(h: &mut Harness) -> Result<CaseResult, Stop> {
    if !h.caps().buffer_marker {
        return Err(Stop::NotSupported("VK_AMD_buffer_marker".into()));
    }
    let sync2 = h.caps().synchronization2;
    let markers: Vec<Marker> = [Marker::V1(vk::PipelineStageFlags::TOP_OF_PIPE)]
        .iter()
        .chain(AFTER_DISPATCH)
        .chain(AFTER_COPY)
        .chain(AFTER_FILL)
        .chain(EVERY_OTHER_STAGE)
        .copied()
        .filter(|m| sync2 || matches!(m, Marker::V1(_)))
        .collect();
    let slots = markers.len() + 1;

    let initial = Sequence::new(22).u32s(WORDS);
    let input = step::buffer(h, Some(&initial))?;
    let output = h.host_buffer(
        4 * WORDS as u64,
        vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::TRANSFER_SRC,
    )?;
    let copied = h.host_buffer(4 * WORDS as u64, vk::BufferUsageFlags::TRANSFER_DST)?;
    let filled = h.host_buffer(4 * FILL_WORDS as u64, vk::BufferUsageFlags::TRANSFER_DST)?;
    let slot_buffer = h.host_buffer(4 * slots as u64, vk::BufferUsageFlags::TRANSFER_DST)?;
    let pipeline = step::pipeline(h)?;
    let set = h.descriptor_set(&pipeline, 0, &[Bind::whole(&input), Bind::whole(&output)])?;

    // SAFETY: the instance and device are alive; the name is a device
    // command of an enabled extension.
    let marker2: Option<vk::PFN_vkCmdWriteBufferMarker2AMD> = if sync2 {
        let pfn = unsafe {
            (h.instance().fp_v1_0().get_device_proc_addr)(
                h.device().handle(),
                c"vkCmdWriteBufferMarker2AMD".as_ptr(),
            )
        };
        let Some(pfn) = pfn else {
            return Err(Stop::Error(
                "vkGetDeviceProcAddr(vkCmdWriteBufferMarker2AMD) is NULL".into(),
            ));
        };
        // SAFETY: the loader returned the entry point of this command,
        // whose type is the PFN's.
        Some(unsafe {
            std::mem::transmute::<unsafe extern "system" fn(), vk::PFN_vkCmdWriteBufferMarker2AMD>(
                pfn,
            )
        })
    } else {
        None
    };
    let marker1 = ash::amd::buffer_marker::Device::new(h.instance(), h.device());

    h.run(|r| {
        let cmd = r.command_buffer();
        let mut next = 0;
        let mut write = |count: usize| {
            for _ in 0..count {
                let value = MARKER_BASE + next as u32;
                let offset = 4 * next as u64;
                // SAFETY: the command buffer is recording; the buffer is
                // alive and the slot is inside it.
                unsafe {
                    match markers[next] {
                        Marker::V1(stage) => marker1.cmd_write_buffer_marker(
                            cmd,
                            stage,
                            slot_buffer.handle,
                            offset,
                            value,
                        ),
                        Marker::V2(stage) => marker2.expect("synchronization2 markers")(
                            cmd,
                            stage,
                            slot_buffer.handle,
                            offset,
                            value,
                        ),
                    }
                }
                next += 1;
            }
        };
        write(1);
        step::record(r, &pipeline, set, 1);
        write(AFTER_DISPATCH.len());
        r.barrier(Dependency::COMPUTE_TO_TRANSFER);
        r.copy(
            &output,
            &copied,
            &[vk::BufferCopy {
                src_offset: 0,
                dst_offset: 0,
                size: 4 * WORDS as u64,
            }],
        );
        let usable = |list: &[Marker]| {
            list.iter()
                .filter(|m| sync2 || matches!(m, Marker::V1(_)))
                .count()
        };
        write(usable(AFTER_COPY));
        r.fill(&filled, 0, vk::WHOLE_SIZE, FILL);
        write(usable(AFTER_FILL));
        write(usable(EVERY_OTHER_STAGE));
        r.barrier(Dependency::new(
            vk::PipelineStageFlags::ALL_COMMANDS,
            vk::AccessFlags::MEMORY_WRITE,
            vk::PipelineStageFlags::HOST,
            vk::AccessFlags::HOST_READ,
        ));
    })?;

    let mut want_slots: Vec<u32> = (0..markers.len() as u32).map(|i| MARKER_BASE + i).collect();
    want_slots.push(POISON_WORD);
    let mut result = CaseResult::new();
    result.check("markers", &h.read_as::<u32>(&slot_buffer)?, &want_slots);
    result.check(
        "copied",
        &h.read_as::<u32>(&copied)?,
        &step::step(&initial, 1),
    );
    result.check("filled", &h.read_as::<u32>(&filled)?, &[FILL; FILL_WORDS]);
    Ok(result)
}
