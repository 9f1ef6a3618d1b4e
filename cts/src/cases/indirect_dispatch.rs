//! Dispatches whose workgroup counts come from a buffer (written by the
//! host or by an earlier dispatch), and dispatches with a base workgroup.

use crate::bytes::to_bytes;
use crate::case::{Case, CaseResult, Stop};
use crate::harness::{Bind, Dependency, Harness, PipelineDesc, Slot, POISON_WORD};
use crate::shaders;
use ash::vk;

pub const CASES: &[Case] = &[
    Case {
        name: "indirect_dispatch.host_written",
        run: host_written,
    },
    Case {
        name: "indirect_dispatch.device_written",
        run: device_written,
    },
    Case {
        name: "indirect_dispatch.dispatch_base",
        run: dispatch_base,
    },
];

const STORAGE: vk::BufferUsageFlags = vk::BufferUsageFlags::STORAGE_BUFFER;
/// `grid.comp`'s workgroup size.
const LOCAL: [u32; 3] = [8, 2, 1];

/// What `grid.comp` writes for a dispatch of `groups` from cell `base`.
fn expect_grid(cells: &mut [u32], base: usize, tag: u32, groups: [u32; 3]) {
    let count = (0..3)
        .map(|d| (groups[d] * LOCAL[d]) as usize)
        .product::<usize>();
    let value = tag | groups[0] << 8 | groups[1] << 14 | groups[2] << 20;
    cells[base..base + count].fill(value);
}

/// Three indirect dispatches from one host-written buffer at offsets 16,
/// 28 and 40 (the words before are garbage); the second has zero groups
/// and must write nothing.
fn host_written(h: &mut Harness) -> Result<CaseResult, Stop> {
    let dispatches: [(u64, [u32; 3], usize); 3] = [
        (16, [3, 2, 1], 0),
        (28, [0, 1, 1], 200),
        (40, [1, 1, 4], 400),
    ];
    let mut args = vec![u32::MAX; 4];
    for (_, groups, _) in &dispatches {
        args.extend(groups);
    }
    let args = h.host_buffer_with(vk::BufferUsageFlags::INDIRECT_BUFFER, &to_bytes(&args))?;
    let cells = h.host_buffer(4 * 600, STORAGE)?;
    let sets: &[&[Slot]] = &[&[Slot::STORAGE]];
    let pipeline = h.pipeline(&PipelineDesc::new(&shaders::GRID, sets).push_constants(8))?;
    let set = h.descriptor_set(&pipeline, 0, &[Bind::whole(&cells)])?;
    h.run(|r| {
        r.bind(&pipeline, &[set]);
        for (tag, (offset, _, base)) in dispatches.iter().enumerate() {
            if tag > 0 {
                r.barrier(Dependency::COMPUTE_TO_COMPUTE);
            }
            r.push_constants(&pipeline, 0, &to_bytes(&[*base as u32, tag as u32 + 1]));
            r.dispatch_indirect(&args, *offset);
        }
        r.barrier(Dependency::TO_HOST);
    })?;
    let mut want = vec![POISON_WORD; 600];
    for (tag, (_, groups, base)) in dispatches.iter().enumerate() {
        expect_grid(&mut want, *base, tag as u32 + 1, *groups);
    }
    let mut result = CaseResult::new();
    result.check("cells", &h.read_as::<u32>(&cells)?, &want);
    Ok(result)
}

/// A dispatch computes the arguments of the next, which reads them after a
/// barrier to the indirect-command stage.
fn device_written(h: &mut Harness) -> Result<CaseResult, Stop> {
    let seed = 23u32;
    let groups = [seed % 5 + 1, seed / 5 % 3 + 1, seed / 15 % 2 + 1];
    let seed_buffer = h.host_buffer_with(STORAGE, &to_bytes(&[seed]))?;
    let args = h.host_buffer(32, STORAGE | vk::BufferUsageFlags::INDIRECT_BUFFER)?;
    let cells = h.host_buffer(4 * 512, STORAGE)?;
    let writer = h.compute(&shaders::INDIRECT_ARGS, &[&[Slot::STORAGE, Slot::STORAGE]])?;
    let writer_set =
        h.descriptor_set(&writer, 0, &[Bind::whole(&seed_buffer), Bind::whole(&args)])?;
    let sets: &[&[Slot]] = &[&[Slot::STORAGE]];
    let grid = h.pipeline(&PipelineDesc::new(&shaders::GRID, sets).push_constants(8))?;
    let grid_set = h.descriptor_set(&grid, 0, &[Bind::whole(&cells)])?;
    h.run(|r| {
        r.bind(&writer, &[writer_set]);
        r.dispatch(1, 1, 1);
        r.barrier(Dependency::COMPUTE_TO_INDIRECT);
        r.bind(&grid, &[grid_set]);
        r.push_constants(&grid, 0, &to_bytes(&[0u32, 9]));
        r.dispatch_indirect(&args, 16);
        r.barrier(Dependency::TO_HOST);
    })?;
    let mut want = vec![POISON_WORD; 512];
    expect_grid(&mut want, 0, 9, groups);
    let mut result = CaseResult::new();
    result.check("cells", &h.read_as::<u32>(&cells)?, &want);
    Ok(result)
}

/// vkCmdDispatchBase from workgroup (2, 1, 0), three by two workgroups.
fn dispatch_base(h: &mut Harness) -> Result<CaseResult, Stop> {
    if !h.caps().dispatch_base {
        return Err(Stop::NotSupported("vkCmdDispatchBase (Vulkan 1.1)".into()));
    }
    let base = [2u32, 1, 0];
    let count = [3u32, 2, 1];
    let output = h.host_buffer(16 * 24, STORAGE)?;
    let sets: &[&[Slot]] = &[&[Slot::STORAGE]];
    let pipeline = h.pipeline(
        &PipelineDesc::new(&shaders::BASE_IDS, sets)
            .push_constants(8)
            .flags(vk::PipelineCreateFlags::DISPATCH_BASE),
    )?;
    let set = h.descriptor_set(&pipeline, 0, &[Bind::whole(&output)])?;
    h.run(|r| {
        r.bind(&pipeline, &[set]);
        r.push_constants(&pipeline, 0, &to_bytes(&base[..2]));
        r.dispatch_base(base, count);
        r.barrier(Dependency::TO_HOST);
    })?;
    let mut want = Vec::new();
    for gy in 0..count[1] {
        for gx in 0..count[0] {
            for lx in 0..4 {
                let wg = [base[0] + gx, base[1] + gy];
                want.extend([wg[0], wg[1], wg[0] * 4 + lx, count[0] << 8 | count[1]]);
            }
        }
    }
    let mut result = CaseResult::new();
    result.check("ids", &h.read_as::<u32>(&output)?, &want);
    Ok(result)
}
