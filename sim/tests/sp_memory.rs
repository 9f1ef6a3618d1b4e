//! Memory a fiber addresses itself: global loads and stores in every
//! addressing form and size, `ldg.k`, shared memory across the waves of a
//! work group with a barrier, private memory, global and shared atomics of
//! every operation, `shfl` and the id queries.

mod shader_rig;

use parsnip_isa::IsaGen;
use parsnip_sim::shader_state::SharedConsts;
use shader_rig::*;

#[test]
fn global_loads_and_stores_by_size_and_offset() {
    for g in GENS {
        let mut rig = Rig::new(g);
        let src = rig.words(&[
            0x1111_1111,
            0x2222_2222,
            0x3333_3333,
            0x4444_4444,
            0x8877_66f5,
        ]);
        let out = rig.poisoned(8);
        let p = rig.program(&format!(
            "{PROLOGUE}
            mov.u32u32 r4.x, c1.x
            mov.u32u32 r4.y, c1.y
            ldg.u32 r5.x, g[r4.x+4], 3
            stg.u32 g[r2.x], r5.x, 3
            ldg.u16 hr12.x, g[r4.x+16], 1
            cov.u16u32 r3.x, hr12.x
            stg.u32 g[r2.x+12], r3.x, 1
            ldg.u8 hr12.x, g[r4.x+16], 1
            cov.u16u32 r3.x, hr12.x
            stg.u32 g[r2.x+16], r3.x, 1
            ldg.u8_32 r6.x, g[r4.x+16], 1
            cov.s16s32 r3.x, hr6.x
            stg.u32 g[r2.x+20], r3.x, 1
            stg.u8 g[r2.x+24], hr12.x, 1
            end"
        ));
        let mut d = rig.dispatch(p);
        d.consts = address_consts(out, &[src as u32, (src >> 32) as u32]);
        rig.run_ok(&d);
        let r = rig.read(out, 7);
        assert_eq!(&r[..3], &[0x2222_2222, 0x3333_3333, 0x4444_4444], "{g}");
        assert_eq!(r[3], 0x66f5, "{g}: u16");
        assert_eq!(r[4], 0xf5, "{g}: u8 zero-extends");
        // `ldg.u8_32 r6.x` fills hr6.x (Qualcomm's compiler reads such a
        // load back with `cov.s16s32` from the half register).
        assert_eq!(r[5], (-11i32) as u32, "{g}: u8_32 sign-extends");
        assert_eq!(r[6], 0xdead_bef5, "{g}: stg.u8 stores one byte");
    }
}

#[test]
fn ldg_a_scales_its_index_on_a6xx_and_adds_bytes_on_a7xx() {
    // Fiber i loads element i + 1 of a table through the `.a` form.
    let table: Vec<u32> = (0..70).map(|i| 1000 + i).collect();
    for (g, load) in [
        (IsaGen::A6xx, "ldg.a.u32 r3.x, g[r4.x+((r0.x+1)<<2)], 1"),
        (
            IsaGen::A7xx,
            "shl.b r5.x, r0.x, 2\nldg.a.u32 r3.x, g[r4.x+r5.x+4], 1",
        ),
    ] {
        let mut rig = Rig::new(g);
        let src = rig.words(&table);
        let out = rig.poisoned(64);
        let p = rig.program(&format!(
            "{PROLOGUE}
            mov.u32u32 r4.x, c1.x
            mov.u32u32 r4.y, c1.y
            {load}
            {STORE_R3X}"
        ));
        let mut d = rig.dispatch(p);
        d.local_size = [64, 1, 1];
        d.consts = address_consts(out, &[src as u32, (src >> 32) as u32]);
        rig.run_ok(&d);
        assert_eq!(rig.read(out, 64), table[1..65], "{g}");
    }
}

#[test]
fn ldg_k_and_stc_write_the_const_file() {
    for g in GENS {
        let mut rig = Rig::new(g);
        let src = rig.words(&[5, 6, 7, 8]);
        let out = rig.poisoned(3);
        let p = rig.program(&format!(
            "{PROLOGUE}
            mov.u32u32 r4.x, c1.x
            mov.u32u32 r4.y, c1.y
            ldg.k.u32 c[16], g[r4.x+4], 2
            mov.u32u32 r3.x, c4.y
            stg.u32 g[r2.x], r3.x, 1
            mov.u32u32 r5.x, 77
            mova1 a1.x, 2
            stc.u32 c[a1.x+20], r5.x, 1
            mov.u32u32 r3.x, c5.z
            stg.u32 g[r2.x+4], r3.x, 1
            mov.u32u32 r3.x, c4.x
            stg.u32 g[r2.x+8], r3.x, 1
            end"
        ));
        let mut d = rig.dispatch(p);
        d.consts = address_consts(out, &[src as u32, (src >> 32) as u32]);
        rig.run_ok(&d);
        assert_eq!(rig.read(out, 3), [7, 77, 6], "{g}");
    }
}

#[test]
fn shared_memory_crosses_waves_at_a_barrier() {
    for g in GENS {
        // 128 fibers in two waves: each stores 3 * id at l[4 * id], waits,
        // and reads what fiber 127 - id stored (the other wave's, for most).
        let mut rig = Rig::new(g);
        let out = rig.poisoned(128);
        let p = rig.program(&format!(
            "{PROLOGUE}
            mul.u24 r4.x, r0.x, 3
            stl.u32 l[r0.w], r4.x, 1
            bar
            sub.u r5.x, 127, r0.x
            shl.b r5.x, r5.x, 2
            ldl.u32 r3.x, l[r5.x], 1
            {STORE_R3X}"
        ));
        let mut d = rig.dispatch(p);
        d.local_size = [128, 1, 1];
        d.shared_size = 512;
        d.consts = address_consts(out, &[]);
        let stats = rig.run_ok(&d);
        let want: Vec<u32> = (0..128).map(|i| 3 * (127 - i)).collect();
        assert_eq!(rig.read(out, 128), want, "{g}");
        assert_eq!((stats.waves, stats.barriers), (2, 1), "{g}");
    }
}

#[test]
fn shared_memory_starts_undefined() {
    // What the hardware leaves there is not zero: the model holds a pattern, so
    // a shader (or compiler) that reads shared memory before writing it fails.
    for g in GENS {
        let mut rig = Rig::new(g);
        let out = rig.poisoned(64);
        let p = rig.program(&format!(
            "{PROLOGUE}
            shl.b r5.x, r0.x, 2
            ldl.u32 r3.x, l[r5.x], 1
            {STORE_R3X}"
        ));
        let mut d = rig.dispatch(p);
        d.local_size = [64, 1, 1];
        d.shared_size = 256;
        d.consts = address_consts(out, &[]);
        rig.run_ok(&d);
        let r = rig.read(out, 64);
        assert!(r.iter().all(|&v| v != 0), "{g}: {r:x?}");
    }
}

#[test]
fn shared_memory_atomics_count_every_fiber() {
    // Shared memory starts undefined: every fiber zeroes the two words, and all
    // meet at a barrier, before the atomics.
    for g in GENS {
        let mut rig = Rig::new(g);
        let out = rig.poisoned(256);
        let p = rig.program(&format!(
            "{PROLOGUE}
            mov.u32u32 r4.x, 0
            mov.u32u32 r4.y, 1
            mov.u32u32 r5.x, 0
            mov.u32u32 r5.y, 0
            stl.u32 l[r4.x], r5.x, 2
            bar
            atomic.add.untyped.1d.u32.1.l r4.z, l[r4.x], r4.y
            atomic.max.untyped.1d.u32.1.l r4.w, l[4], r0.x
            bar
            ldl.u32 r3.x, l[r4.x], 2
            stg.u32 g[r2.x], r4.z, 1
            add.u r2.x, r2.x, 512
            stg.u32 g[r2.x], r3.x, 1
            end"
        ));
        let mut d = rig.dispatch(p);
        d.local_size = [128, 1, 1];
        d.shared_size = 1024;
        d.consts = address_consts(out, &[]);
        rig.run_ok(&d);
        let r = rig.read(out, 256);
        // The old values are 0..127 in fiber order (waves run in turn).
        assert_eq!(&r[..128], (0..128).collect::<Vec<u32>>(), "{g}");
        assert!(r[128..].iter().all(|&v| v == 128), "{g}: the count");
    }
}

#[test]
fn private_memory_is_per_fiber() {
    for g in GENS {
        let mut rig = Rig::new(g);
        let out = rig.poisoned(64);
        let private = rig.words(&vec![0; 64 * 4]);
        let p = rig.program(&format!(
            "{PROLOGUE}
            mul.u24 r4.x, r0.x, 7
            mov.u32u32 r5.x, 4
            stp.u32 p[r5.x+8], r4.x, 1
            ldp.u32 r3.x, p[r5.x+8], 1
            {STORE_R3X}"
        ));
        let mut d = rig.dispatch(p);
        d.local_size = [64, 1, 1];
        d.private_iova = private;
        d.private_per_fiber = 16;
        d.consts = address_consts(out, &[]);
        rig.run_ok(&d);
        let want: Vec<u32> = (0..64).map(|i| 7 * i).collect();
        assert_eq!(rig.read(out, 64), want, "{g}");
        // Each fiber's 16 bytes: the value at byte 12.
        let mem = rig.read(private, 64 * 4);
        assert_eq!(mem[4 * 5 + 3], 35, "{g}");
    }
}

/// One global atomic on `old` with `operand` (and `compare`), in a single
/// fiber: returns (the value returned, the value left in memory).
fn global_atomic(
    g: IsaGen,
    op: &str,
    ty: &str,
    old: u32,
    operand: u32,
    compare: u32,
) -> (u32, u32) {
    let mut rig = Rig::new(g);
    let cell = rig.words(&[old]);
    let out = rig.poisoned(1);
    let p = rig.program(&format!(
        "{PROLOGUE}
        mov.u32u32 r4.x, c1.x
        mov.u32u32 r4.y, c1.y
        mov.u32u32 r5.x, c1.z
        mov.u32u32 r5.y, c1.w
        atomic.g.{op}.untyped.1d.{ty}.1.g r3.x, r4.x, r5.x
        {STORE_R3X}"
    ));
    let mut d = rig.dispatch(p);
    d.consts = address_consts(out, &[cell as u32, (cell >> 32) as u32, operand, compare]);
    rig.run_ok(&d);
    (rig.read(out, 1)[0], rig.read(cell, 1)[0])
}

#[test]
fn global_atomics_of_every_operation() {
    let m1 = u32::MAX;
    for g in GENS {
        let cases: [(&str, &str, u32, u32, u32, u32); 13] = [
            ("add", "u32", m1, 3, 0, 2),
            ("sub", "u32", 1, 3, 0, m1 - 1),
            ("xchg", "u32", 9, 4, 0, 4),
            ("inc", "u32", 9, 0, 0, 10),
            ("dec", "u32", 0, 0, 0, m1),
            ("cmpxchg", "u32", 9, 4, 9, 4),
            ("cmpxchg", "u32", 9, 4, 8, 9),
            ("min", "s32", 5, m1, 0, m1),
            ("min", "u32", 5, m1, 0, 5),
            ("max", "s32", 5, m1, 0, 5),
            ("and", "u32", 0b1100, 0b1010, 0, 0b1000),
            ("or", "u32", 0b1100, 0b1010, 0, 0b1110),
            ("xor", "u32", 0b1100, 0b1010, 0, 0b0110),
        ];
        for (op, ty, old, operand, compare, new) in cases {
            let (returned, left) = global_atomic(g, op, ty, old, operand, compare);
            assert_eq!(
                (returned, left),
                (old, new),
                "{g}: atomic.g.{op}.{ty} of {old:#x} with {operand:#x} (compare {compare:#x})"
            );
        }
    }
}

#[test]
fn a_global_atomic_returns_old_values_in_fiber_order() {
    for g in GENS {
        let mut rig = Rig::new(g);
        let cell = rig.words(&[10]);
        let out = rig.poisoned(64);
        let p = rig.program(&format!(
            "{PROLOGUE}
            mov.u32u32 r4.x, c1.x
            mov.u32u32 r4.y, c1.y
            add.u r5.x, r0.x, 1
            atomic.g.add.untyped.1d.u32.1.g r3.x, r4.x, r5.x
            {STORE_R3X}"
        ));
        let mut d = rig.dispatch(p);
        d.local_size = [64, 1, 1];
        d.consts = address_consts(out, &[cell as u32, (cell >> 32) as u32]);
        rig.run_ok(&d);
        let want: Vec<u32> = (0..64).map(|i| 10 + i * (i + 1) / 2).collect();
        assert_eq!(rig.read(out, 64), want, "{g}");
        assert_eq!(rig.read(cell, 1), [10 + 64 * 65 / 2], "{g}");
    }
}

#[test]
fn shfl_and_the_id_queries() {
    for g in GENS {
        let body = "
            shfl.xor.u32 r3.x, r0.x, 1
            stg.u32 g[r2.x], r3.x, 1
            mov.u32u32 r3.x, 999
            shfl.up.u32 r3.x, r0.x, 3
            add.u r2.x, r2.x, 512
            stg.u32 g[r2.x], r3.x, 1
            shfl.rdown.u32 r3.x, r0.x, 5
            add.u r2.x, r2.x, 512
            stg.u32 g[r2.x], r3.x, 1
            getfiberid.u32 r3.x
            add.u r2.x, r2.x, 512
            stg.u32 g[r2.x], r3.x, 1
            getwid.u32 r3.x
            add.u r2.x, r2.x, 512
            stg.u32 g[r2.x], r3.x, 1
        ";
        let (r, _) = run_group(g, 128, body, &[], 128 * 5);
        for w in 0..2usize {
            for l in 0..64usize {
                let i = 64 * w + l;
                let at = |k: usize| r[128 * k + i];
                assert_eq!(at(0) as usize, 64 * w + (l ^ 1), "{g}: xor, fiber {i}");
                let up = if l >= 3 { 64 * w + l - 3 } else { 999 };
                assert_eq!(at(1) as usize, up, "{g}: up, fiber {i}");
                assert_eq!(
                    at(2) as usize,
                    64 * w + (l + 5) % 64,
                    "{g}: rdown, fiber {i}"
                );
                assert_eq!(at(3) as usize, l, "{g}: fiber id");
                assert_eq!(at(4) as usize, w, "{g}: wave id");
            }
        }
    }
}

#[test]
fn stsc_copies_the_immediate_shared_consts_into_the_const_file() {
    // a7xx only (the XML's `<gen min="700"/>`): `stsc c[4], 1, 2` copies
    // HLSQ_SHARED_CONSTS_IMM[1..3] to c1.x and c1.y, as Turnip's preamble
    // copies its push constants; an entry never written is an error.
    let mut rig = Rig::new(IsaGen::A7xx);
    let out = rig.poisoned(2);
    let p = rig.program(&format!(
        "{PROLOGUE}
        stsc.u32 c[4], 1, 2
        mov.u32u32 r3.x, c1.x
        mov.u32u32 r3.y, c1.y
        stg.u32 g[r2.x], r3.x, 2
        end"
    ));
    let mut d = rig.dispatch(p);
    d.consts = address_consts(out, &[]);
    let mut imm = vec![None; 64];
    imm[..4].copy_from_slice(&[Some(37), Some(1_664_525), Some(1_013_904_223), Some(7)]);
    d.shared_consts = SharedConsts {
        mapped: None,
        imm: imm.clone(),
    };
    rig.run_ok(&d);
    assert_eq!(rig.read(out, 2), [1_664_525, 1_013_904_223]);

    let p = rig.program("stsc.u32 c[0], 3, 3\nend\n");
    let mut d = rig.dispatch(p);
    d.shared_consts = SharedConsts { mapped: None, imm };
    let (message, at) = rig.run_error(&d);
    assert!(
        message.contains("HLSQ_SHARED_CONSTS_IMM[4], which was never written"),
        "{message}"
    );
    assert_eq!(at.expect("names the instruction").pc, 0);
}

#[test]
fn a6xx_shared_consts_are_read_at_c504() {
    // HLSQ_SHARED_CONSTS.ENABLE maps the stage's pool at c504..c511
    // (a6xx.xml), beyond the loaded const file.
    let mut rig = Rig::new(IsaGen::A6xx);
    let out = rig.poisoned(2);
    let p = rig.program(&format!(
        "{PROLOGUE}
        mov.u32u32 r3.x, c504.y
        mov.u32u32 r3.y, c511.w
        stg.u32 g[r2.x], r3.x, 2
        end"
    ));
    let mut d = rig.dispatch(p);
    d.consts = address_consts(out, &[]);
    let pool: Vec<Option<u32>> = (0..32).map(|i| Some(0x5000 + i)).collect();
    d.shared_consts = SharedConsts {
        mapped: Some(pool),
        imm: Vec::new(),
    };
    rig.run_ok(&d);
    assert_eq!(rig.read(out, 2), [0x5001, 0x501f]);
}
