//! VK_AMD_buffer_marker: markers written between dispatches, copies and
//! fills, and before, inside and after a render pass around a draw,
//! through both entry points and at every stage a compute or graphics
//! queue may name, each land in its own slot with its own value, and the
//! work between them is not disturbed.
//!
//! lavapipe 22.3 lacks the extension, so the values are the ones worked out
//! here: slot `i` holds `MARKER_BASE + i`, written by the `i`-th marker in
//! recording order.

use super::draws::{full, probe_triangle, target, CLEAR, COLOR_LAYOUT};
use super::pseudo_random::Sequence;
use super::render_passes::{color, read_back};
use super::step::{self, WORDS};
use crate::case::{Case, CaseResult, Stop};
use crate::harness::{Bind, Buffer, Dependency, GraphicsDesc, Harness, Recorder, POISON_WORD};
use crate::shaders;
use ash::vk;

pub const CASES: &[Case] = &[
    Case {
        name: "markers.compute_and_transfer",
        run: compute_and_transfer,
    },
    Case {
        name: "markers.graphics",
        run: graphics,
    },
];

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

/// Inside the render pass, after its draw: every stage of the graphics
/// pipeline, through both entry points.
const AFTER_DRAW: &[Marker] = &[
    Marker::V1(vk::PipelineStageFlags::DRAW_INDIRECT),
    Marker::V1(vk::PipelineStageFlags::VERTEX_INPUT),
    Marker::V1(vk::PipelineStageFlags::VERTEX_SHADER),
    Marker::V1(vk::PipelineStageFlags::EARLY_FRAGMENT_TESTS),
    Marker::V1(vk::PipelineStageFlags::FRAGMENT_SHADER),
    Marker::V1(vk::PipelineStageFlags::LATE_FRAGMENT_TESTS),
    Marker::V1(vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT),
    Marker::V1(vk::PipelineStageFlags::ALL_GRAPHICS),
    Marker::V2(vk::PipelineStageFlags2::INDEX_INPUT),
    Marker::V2(vk::PipelineStageFlags2::VERTEX_ATTRIBUTE_INPUT),
    Marker::V2(vk::PipelineStageFlags2::PRE_RASTERIZATION_SHADERS),
    Marker::V2(vk::PipelineStageFlags2::FRAGMENT_SHADER),
    Marker::V2(vk::PipelineStageFlags2::COLOR_ATTACHMENT_OUTPUT),
    Marker::V2(vk::PipelineStageFlags2::ALL_GRAPHICS),
];
/// After the render pass has ended.
const AFTER_PASS: &[Marker] = &[
    Marker::V1(vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT),
    Marker::V2(vk::PipelineStageFlags2::COLOR_ATTACHMENT_OUTPUT),
    Marker::V1(vk::PipelineStageFlags::BOTTOM_OF_PIPE),
];

/// Records markers into consecutive slots of one buffer, each slot `i`
/// getting `MARKER_BASE + i`, through the entry point each marker names.
struct MarkerWriter<'b> {
    v1: ash::amd::buffer_marker::Device,
    v2: Option<vk::PFN_vkCmdWriteBufferMarker2AMD>,
    slots: &'b Buffer,
    next: std::cell::Cell<usize>,
}

impl<'b> MarkerWriter<'b> {
    /// Stops with NotSupported where the extension is missing; markers of
    /// synchronization2 are written only where it is enabled.
    fn new(h: &Harness, slots: &'b Buffer) -> Result<Self, Stop> {
        if !h.caps().buffer_marker {
            return Err(Stop::NotSupported("VK_AMD_buffer_marker".into()));
        }
        let v2 = if h.caps().synchronization2 {
            // SAFETY: the instance and device are alive; the name is a
            // device command of an enabled extension.
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
        Ok(Self {
            v1: ash::amd::buffer_marker::Device::new(h.instance(), h.device()),
            v2,
            slots,
            next: std::cell::Cell::new(0),
        })
    }

    /// The markers of `list` this device can write.
    fn usable(&self, list: &[Marker]) -> Vec<Marker> {
        list.iter()
            .copied()
            .filter(|m| self.v2.is_some() || matches!(m, Marker::V1(_)))
            .collect()
    }

    /// Records the usable markers of `list`, each into the next slot.
    fn write(&self, r: &Recorder<'_>, list: &[Marker]) {
        for marker in self.usable(list) {
            let slot = self.next.get();
            let value = MARKER_BASE + slot as u32;
            let offset = 4 * slot as u64;
            let (cmd, buffer) = (r.command_buffer(), self.slots.handle);
            // SAFETY: the command buffer is recording; the buffer is alive
            // and the slot is inside it.
            unsafe {
                match marker {
                    Marker::V1(stage) => self
                        .v1
                        .cmd_write_buffer_marker(cmd, stage, buffer, offset, value),
                    Marker::V2(stage) => self.v2.expect("a usable synchronization2 marker")(
                        cmd, stage, buffer, offset, value,
                    ),
                }
            }
            self.next.set(slot + 1);
        }
    }

    /// What the slot buffer must hold once `count` markers have landed:
    /// their values, then the untouched slot past them.
    fn expected(count: usize) -> Vec<u32> {
        let mut want: Vec<u32> = (0..count as u32).map(|i| MARKER_BASE + i).collect();
        want.push(POISON_WORD);
        want
    }
}

/// Every marker stage, made visible to the host.
const MARKERS_TO_HOST: Dependency = Dependency {
    src_stage: vk::PipelineStageFlags::ALL_COMMANDS,
    src_access: vk::AccessFlags::MEMORY_WRITE,
    dst_stage: vk::PipelineStageFlags::HOST,
    dst_access: vk::AccessFlags::HOST_READ,
};

/// A top-of-pipe marker before anything, then a dispatch (one chain step),
/// a copy of its output, a fill, each followed by markers, then a marker at
/// each remaining stage. The slots hold their markers' values in recording
/// order; the slot past the last is untouched; the copy and fill are right.
fn compute_and_transfer(h: &mut Harness) -> Result<CaseResult, Stop> {
    let lists = [
        &[Marker::V1(vk::PipelineStageFlags::TOP_OF_PIPE)][..],
        AFTER_DISPATCH,
        AFTER_COPY,
        AFTER_FILL,
        EVERY_OTHER_STAGE,
    ];
    let most = lists.iter().map(|l| l.len()).sum::<usize>() + 1;
    let slot_buffer = h.host_buffer(4 * most as u64, vk::BufferUsageFlags::TRANSFER_DST)?;
    let markers = MarkerWriter::new(h, &slot_buffer)?;
    let count: usize = lists.iter().map(|l| markers.usable(l).len()).sum();

    let initial = Sequence::new(22).u32s(WORDS);
    let input = step::buffer(h, Some(&initial))?;
    let output = h.host_buffer(
        4 * WORDS as u64,
        vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::TRANSFER_SRC,
    )?;
    let copied = h.host_buffer(4 * WORDS as u64, vk::BufferUsageFlags::TRANSFER_DST)?;
    let filled = h.host_buffer(4 * FILL_WORDS as u64, vk::BufferUsageFlags::TRANSFER_DST)?;
    let pipeline = step::pipeline(h)?;
    let set = h.descriptor_set(&pipeline, 0, &[Bind::whole(&input), Bind::whole(&output)])?;

    h.run(|r| {
        markers.write(r, lists[0]);
        step::record(r, &pipeline, set, 1);
        markers.write(r, AFTER_DISPATCH);
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
        markers.write(r, AFTER_COPY);
        r.fill(&filled, 0, vk::WHOLE_SIZE, FILL);
        markers.write(r, AFTER_FILL);
        markers.write(r, EVERY_OTHER_STAGE);
        r.barrier(MARKERS_TO_HOST);
    })?;

    let mut result = CaseResult::new();
    result.check(
        "markers",
        &h.read_as::<u32>(&slot_buffer)?[..count + 1],
        &MarkerWriter::expected(count),
    );
    result.check(
        "copied",
        &h.read_as::<u32>(&copied)?,
        &step::step(&initial, 1),
    );
    result.check("filled", &h.read_as::<u32>(&filled)?, &[FILL; FILL_WORDS]);
    Ok(result)
}

/// Turnip's triangle in a render pass, with a top-of-pipe marker before the
/// pass, another inside it before the draw, a marker at every graphics
/// stage after the draw, and markers after the pass. In GMEM the pass's
/// draw stream runs once per bin (and once more in a binning pass), so the
/// markers inside it are written several times, always with their own
/// value: the slots still hold each marker's value, and the triangle is
/// drawn as without markers.
fn graphics(h: &mut Harness) -> Result<CaseResult, Stop> {
    let inside_before = [Marker::V2(vk::PipelineStageFlags2::TOP_OF_PIPE)];
    let before = [Marker::V1(vk::PipelineStageFlags::TOP_OF_PIPE)];
    let lists = [&before[..], &inside_before, AFTER_DRAW, AFTER_PASS];
    let most = lists.iter().map(|l| l.len()).sum::<usize>() + 1;
    let slot_buffer = h.host_buffer(4 * most as u64, vk::BufferUsageFlags::TRANSFER_DST)?;
    let markers = MarkerWriter::new(h, &slot_buffer)?;
    let count: usize = lists.iter().map(|l| markers.usable(l).len()).sum();

    let t = target(h, false)?;
    let desc = GraphicsDesc::new(
        &shaders::TRIANGLE_VERT,
        &shaders::COLOUR_FRAG,
        t.pass,
        super::draws::SIZE,
    );
    let pipeline = h.graphics_pipeline(&desc)?;
    h.run(|r| {
        markers.write(r, &before);
        r.begin_pass(t.pass, t.fb, full(), &[color(CLEAR)]);
        markers.write(r, &inside_before);
        r.bind_graphics(pipeline);
        r.draw(3, 1, 0, 0);
        markers.write(r, AFTER_DRAW);
        r.end_pass();
        markers.write(r, AFTER_PASS);
        r.barrier(MARKERS_TO_HOST);
    })?;

    let mut result = CaseResult::new();
    result.check(
        "markers",
        &h.read_as::<u32>(&slot_buffer)?[..count + 1],
        &MarkerWriter::expected(count),
    );
    let img = read_back(h, &t.attachments[0].image, COLOR_LAYOUT, 4)?;
    probe_triangle(&mut result, &img);
    result.keep_approximate("rgba8", img);
    Ok(result)
}
