//! VK_EXT_texel_buffer_alignment (core in Vulkan 1.3): texel buffer views
//! at the offsets its properties allow, below minTexelBufferOffsetAlignment.
//! With single-texel alignment a view may start at any multiple of its
//! texel: here one, three and five texels into their buffers (4, 12 and 20
//! bytes), fetched, stored and atomically added through, the texels before
//! them untouched.

use super::buffer_layouts::texel_buffers_at;
use crate::case::{Case, CaseResult, Stop};
use crate::harness::Harness;
use ash::vk;

pub const CASES: &[Case] = &[Case {
    name: "texel_buffer_alignment.single_texel_offsets",
    run: single_texel_offsets,
}];

/// The views' first texels, each 4 bytes.
const FIRST: [usize; 3] = [1, 3, 5];

fn single_texel_offsets(h: &mut Harness) -> Result<CaseResult, Stop> {
    if !h.caps().texel_buffer_alignment {
        return Err(Stop::NotSupported("texelBufferAlignment".into()));
    }
    let mut p = vk::PhysicalDeviceTexelBufferAlignmentProperties::default();
    let mut query = vk::PhysicalDeviceProperties2::default().push_next(&mut p);
    // SAFETY: a query on the live physical device; the extension or 1.3
    // makes the structure valid.
    unsafe {
        h.instance()
            .get_physical_device_properties2(h.physical_device(), &mut query)
    };
    // What the properties allow for a 4-byte texel.
    let allowed = |bytes: u64, single: vk::Bool32| {
        let align = if single == vk::TRUE {
            bytes.min(4)
        } else {
            bytes
        };
        FIRST.iter().all(|&t| (4 * t as u64).is_multiple_of(align))
    };
    if !allowed(
        p.uniform_texel_buffer_offset_alignment_bytes,
        p.uniform_texel_buffer_offset_single_texel_alignment,
    ) || !allowed(
        p.storage_texel_buffer_offset_alignment_bytes,
        p.storage_texel_buffer_offset_single_texel_alignment,
    ) {
        return Err(Stop::NotSupported(format!(
            "views at 4-byte offsets: {p:?}"
        )));
    }
    texel_buffers_at(h, FIRST)
}
