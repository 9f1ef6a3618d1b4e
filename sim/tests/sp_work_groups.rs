//! Work groups of every size the hardware runs (1 to 1024 fibers, 1D to
//! 3D, waves of 64 and 128, a partial last wave) and grids of them: every
//! fiber must see its own local id, work group id, linear local id and the
//! work group size in the registers the dispatch names.

mod shader_rig;

use parsnip_isa::IsaGen;
use shader_rig::*;

/// Each fiber stores, at its global linear index, its local id, work group
/// id and the work group size, each packed in one dword. c1.x and c1.y are
/// the group counts in x and y, c1.z the fibers per group.
const IDS: &str = "
    mov.u32u32 r4.x, c1.x
    mov.u32u32 r4.y, c1.y
    mov.u32u32 r4.z, c1.z
    mad.u24 r6.x, r1.z, r4.y, r1.y
    mad.u24 r6.x, r6.x, r4.x, r1.x
    mad.u24 r6.x, r6.x, r4.z, r3.w
    mul.u24 r6.x, r6.x, 12
    add.u r6.x, r6.x, c0.x
    mov.u32u32 r6.y, c0.y
    shl.b r7.x, r0.y, 10
    or.b r7.x, r7.x, r0.x
    shl.b r7.y, r0.z, 20
    or.b r7.x, r7.x, r7.y
    shl.b r7.y, r1.y, 8
    or.b r7.y, r7.y, r1.x
    shl.b r7.z, r1.z, 16
    or.b r7.y, r7.y, r7.z
    shl.b r7.z, r5.y, 10
    or.b r7.z, r7.z, r5.x
    shl.b r7.w, r5.z, 20
    or.b r7.z, r7.z, r7.w
    stg.u32 g[r6.x], r7.x, 3
    end
";

fn check(generation: IsaGen, wave_size: u32, local: [u32; 3], groups: [u32; 3]) {
    let threads = local.iter().product::<u32>();
    let total = threads * groups.iter().product::<u32>();
    let mut rig = Rig::new(generation);
    let out = rig.poisoned(3 * total as usize);
    let p = rig.program(IDS);
    let mut d = rig.dispatch(p);
    d.wave_size = wave_size;
    d.local_size = local;
    d.group_count = groups;
    d.linear_local_id = reg(3, 3);
    d.local_size_reg = reg(5, 0);
    d.consts = address_consts(out, &[groups[0], groups[1], threads]);
    let stats = rig.run_ok(&d);
    let r = rig.read(out, 3 * total as usize);
    let [sx, sy, sz] = local;
    let mut n = 0;
    for gz in 0..groups[2] {
        for gy in 0..groups[1] {
            for gx in 0..groups[0] {
                for lz in 0..sz {
                    for ly in 0..sy {
                        for lx in 0..sx {
                            let i = 3 * n;
                            assert_eq!(
                                r[i..i + 3],
                                [lx | ly << 10 | lz << 20, gx | gy << 8 | gz << 16, sx | sy << 10 | sz << 20],
                                "{generation}, local {local:?}, groups {groups:?}: fiber ({lx}, {ly}, {lz}) of group ({gx}, {gy}, {gz})"
                            );
                            n += 1;
                        }
                    }
                }
            }
        }
    }
    let groups_total = u64::from(groups.iter().product::<u32>());
    assert_eq!(stats.work_groups, groups_total);
    assert_eq!(
        stats.waves,
        groups_total * u64::from(threads.div_ceil(wave_size))
    );
}

#[test]
fn one_fiber() {
    for g in GENS {
        check(g, 64, [1, 1, 1], [1, 1, 1]);
    }
}

#[test]
fn one_and_two_waves() {
    for g in GENS {
        check(g, 64, [64, 1, 1], [2, 1, 1]);
        check(g, 64, [128, 1, 1], [1, 2, 1]);
        check(g, 128, [128, 1, 1], [1, 1, 2]);
    }
}

#[test]
fn the_largest_work_group() {
    for g in GENS {
        check(g, 128, [1024, 1, 1], [2, 1, 1]);
        check(g, 64, [32, 32, 1], [1, 1, 1]);
    }
}

#[test]
fn three_dimensional_groups_and_partial_waves() {
    for g in GENS {
        check(g, 64, [8, 4, 2], [2, 3, 2]);
        check(g, 128, [10, 10, 10], [1, 1, 1]);
        check(g, 64, [3, 5, 7], [2, 2, 2]);
    }
}

#[test]
fn a_work_group_past_the_hardware_limit_is_refused() {
    let mut rig = Rig::new(IsaGen::A6xx);
    let p = rig.program("end\n");
    let mut d = rig.dispatch(p);
    d.local_size = [1025, 1, 1];
    let (message, at) = rig.run_error(&d);
    assert!(at.is_none(), "refused before any instruction runs");
    assert!(message.contains("1025 threads"), "{message}");
}
