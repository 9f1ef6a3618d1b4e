//! What an invocation knows about where it is: its identifiers in a 3-D
//! dispatch, and workgroup sizes chosen at pipeline creation.

use super::one_dispatch::check_one_dispatch;
use crate::bytes::to_bytes;
use crate::case::{Case, CaseResult, Stop};
use crate::harness::{Bind, Harness, PipelineDesc, Slot};
use crate::shaders;
use ash::vk;

pub const CASES: &[Case] = &[
    Case {
        name: "dispatch.ids_3d",
        run: ids_3d,
    },
    Case {
        name: "dispatch.local_sizes",
        run: local_sizes,
    },
    Case {
        name: "dispatch.device_index",
        run: device_index,
    },
];

const STORAGE: vk::BufferUsageFlags = vk::BufferUsageFlags::STORAGE_BUFFER;

/// Every builtin identifier of a (3, 2, 2) dispatch of (4, 2, 3) workgroups.
fn ids_3d(h: &mut Harness) -> Result<CaseResult, Stop> {
    let local = [4u32, 2, 3];
    let groups = [3u32, 2, 2];
    let size = [0, 1, 2].map(|d| local[d] * groups[d]);
    let invocations = (size[0] * size[1] * size[2]) as usize;
    let mut want = vec![0u32; 16 * invocations];
    for z in 0..size[2] {
        for y in 0..size[1] {
            for x in 0..size[0] {
                let l = [x % local[0], y % local[1], z % local[2]];
                let index = l[0] + local[0] * (l[1] + local[1] * l[2]);
                let slot = 16 * (x + size[0] * (y + size[1] * z)) as usize;
                want[slot..slot + 16].copy_from_slice(&[
                    x,
                    y,
                    z,
                    index,
                    l[0],
                    l[1],
                    l[2],
                    0,
                    x / local[0],
                    y / local[1],
                    z / local[2],
                    0,
                    groups[0],
                    groups[1],
                    groups[2],
                    0,
                ]);
            }
        }
    }
    let output = h.host_buffer(4 * want.len() as u64, STORAGE)?;
    let pipeline = h.compute(&shaders::IDS, &[&[Slot::STORAGE]])?;
    let set = h.descriptor_set(&pipeline, 0, &[Bind::whole(&output)])?;
    h.dispatch_and_wait(&pipeline, &[set], [groups[0], groups[1], groups[2]])?;
    let mut result = CaseResult::new();
    result.check("ids", &h.read_as::<u32>(&output)?, &want);
    Ok(result)
}

/// Workgroup sizes from 1 to the 128 invocations every device supports,
/// set with specialization constants; three by two workgroups each.
fn local_sizes(h: &mut Harness) -> Result<CaseResult, Stop> {
    let sizes: [[u32; 2]; 6] = [[1, 1], [7, 1], [32, 1], [64, 2], [128, 1], [5, 13]];
    let limits = h.properties().limits;
    let groups = [3u32, 2];
    let mut result = CaseResult::new();
    for [x, y] in sizes {
        let fits = x * y <= limits.max_compute_work_group_invocations
            && x <= limits.max_compute_work_group_size[0]
            && y <= limits.max_compute_work_group_size[1];
        result.require(
            fits,
            format!("{x}x{y} exceeds the device's workgroup limits"),
        );
        if !fits {
            continue;
        }
        let (width, height) = (x * groups[0], y * groups[1]);
        let mut want = Vec::new();
        for gy in 0..height {
            for gx in 0..width {
                want.extend([gx, gy, x, y]);
            }
        }
        let output = h.host_buffer(to_bytes(&want).len() as u64, STORAGE)?;
        let constants = [(0, x), (1, y)];
        let sets: &[&[Slot]] = &[&[Slot::STORAGE]];
        let pipeline =
            h.pipeline(&PipelineDesc::new(&shaders::LOCAL_SIZE, sets).specialize(&constants))?;
        let set = h.descriptor_set(&pipeline, 0, &[Bind::whole(&output)])?;
        h.dispatch_and_wait(&pipeline, &[set], [groups[0], groups[1], 1])?;
        result.check(&format!("size_{x}x{y}"), &h.read_as::<u32>(&output)?, &want);
    }
    Ok(result)
}

/// gl_DeviceIndex is 0: every device group holds one physical device, so
/// each device's index within its group is 0 (what dEQP's
/// compute.pipeline.device_group.device_index relies on).
fn device_index(h: &mut Harness) -> Result<CaseResult, Stop> {
    let offsets = [1000u32, 20, 300];
    let invocations = 128u32;
    let want: Vec<u32> = (0..invocations).flat_map(|i| [0, 1000 + 20 + i]).collect();
    check_one_dispatch(
        h,
        &shaders::DEVICE_INDEX,
        &to_bytes(&offsets),
        &want,
        invocations / 64,
    )
}
