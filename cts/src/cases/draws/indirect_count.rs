//! `vkCmdDrawIndirectCount` and `vkCmdDrawIndexedIndirectCount` (through
//! `VK_KHR_draw_indirect_count`): the number of draws is the smaller of
//! the count in the buffer and `maxDrawCount`, and the commands are
//! `stride` bytes apart.

use super::{opaque, probe, quad, unorm8, Scene, BLUE, CLEAR, GREEN, RED};
use crate::case::{Case, CaseResult, Stop};
use crate::harness::Harness;
use ash::vk;

pub const CASES: &[Case] = &[Case {
    name: "draws.indirect_count",
    run: indirect_count,
}];

const YELLOW: [f32; 3] = [1.0, 1.0, 0.0];
/// Bytes between the non-indexed commands: more than the 16 one takes.
const STRIDE: u32 = 32;

fn words(w: &[u32]) -> Vec<u8> {
    w.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// Four quads, one per corner: red (bottom left in NDC), green (top
/// right), blue (top left), yellow (bottom right); vertices 0, 6, 12, 18.
/// The non-indexed commands draw red, green, then yellow, the count in
/// memory 2 allowing only the first two; the indexed ones blue then
/// yellow, the count in memory 5 clamped to maxDrawCount 1; a last
/// non-indexed draw of yellow has a count of 0. Yellow is never drawn.
fn indirect_count(h: &mut Harness) -> Result<CaseResult, Stop> {
    if !h
        .caps()
        .enabled_extensions
        .iter()
        .any(|e| e.as_bytes() == ash::khr::draw_indirect_count::NAME.to_bytes())
    {
        return Err(Stop::NotSupported("VK_KHR_draw_indirect_count".into()));
    }
    let mut v = quad(-0.75, -0.75, -0.25, -0.25, 0.5, RED);
    v.extend(quad(0.25, 0.25, 0.75, 0.75, 0.5, GREEN));
    v.extend(quad(-0.75, 0.25, -0.25, 0.75, 0.5, BLUE));
    v.extend(quad(0.25, -0.75, 0.75, -0.25, 0.5, YELLOW));
    // VkDrawIndirectCommand {vertexCount, instanceCount, firstVertex,
    // firstInstance} every STRIDE bytes, then at 96 two
    // VkDrawIndexedIndirectCommand {indexCount, instanceCount, firstIndex,
    // vertexOffset, firstInstance} 20 bytes apart.
    let mut commands = Vec::new();
    for first in [0u32, 6, 18] {
        commands.extend(words(&[6, 1, first, 0]));
        commands.resize(commands.len() + (STRIDE as usize - 16), 0xee);
    }
    for offset in [12u32, 18] {
        commands.extend(words(&[6, 1, 0, offset, 0]));
    }
    // The counts, from byte 4: non-indexed 2, indexed 5, the last 0.
    let counts = words(&[99, 2, 5, 0]);
    let indices: Vec<u8> = (0u16..6).flat_map(|i| i.to_le_bytes()).collect();
    let scene = Scene::new(h, &v, false)?;
    let args = h.host_buffer_with(vk::BufferUsageFlags::INDIRECT_BUFFER, &commands)?;
    let count = h.host_buffer_with(vk::BufferUsageFlags::INDIRECT_BUFFER, &counts)?;
    let idx = h.host_buffer_with(vk::BufferUsageFlags::INDEX_BUFFER, &indices)?;
    let pipeline = h.graphics_pipeline(&scene.desc())?;
    let khr = ash::khr::draw_indirect_count::Device::new(h.instance(), h.device());
    let img = scene.draw(h, pipeline, |r| {
        r.bind_index_buffer(&idx, 0, vk::IndexType::UINT16);
        let cb = r.command_buffer();
        // SAFETY: the command buffer is recording inside a pass with a
        // pipeline and vertex and index buffers bound; the buffers are
        // alive and hold every command and count read.
        unsafe {
            khr.cmd_draw_indirect_count(cb, args.handle, 0, count.handle, 4, 3, STRIDE);
            khr.cmd_draw_indexed_indirect_count(cb, args.handle, 96, count.handle, 8, 1, 20);
            khr.cmd_draw_indirect_count(
                cb,
                args.handle,
                u64::from(2 * STRIDE),
                count.handle,
                12,
                1,
                STRIDE,
            );
        }
    })?;
    let mut result = CaseResult::new();
    // Window corners: red 8..24 x 8..24, green 40..56 x 40..56, blue
    // 8..24 x 40..56, yellow (not drawn) 40..56 x 8..24.
    probe(&mut result, &img, 16, 16, opaque(RED));
    probe(&mut result, &img, 48, 48, opaque(GREEN));
    probe(&mut result, &img, 16, 48, opaque(BLUE));
    probe(&mut result, &img, 48, 16, unorm8(CLEAR));
    probe(&mut result, &img, 32, 32, unorm8(CLEAR));
    result.keep_approximate("rgba8", img);
    Ok(result)
}
