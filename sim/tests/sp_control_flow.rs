//! Branches, divergence and reconvergence, loops, predication, subroutine
//! calls, `getone` and the preamble (`shps`/`shpe` with `stc`), on waves of
//! 64 fibers.

mod shader_rig;
use shader_rig::*;

#[test]
fn divergent_branches_reconverge() {
    for g in GENS {
        // Fibers below 20 take the "then" side, the others "else"; each
        // side records the execution mask, and after the join all 64 run
        // together again.
        let body = "
            cmps.u.lt p0.x, r0.x, 20
            br !p0.x, #else
            mov.u32u32 r3.x, 1
            movmsk.w64 r4.x
            jump #join
        else:
            mov.u32u32 r3.x, 2
            movmsk.w64 r4.x
        join:
            (jp)add.u r3.x, r3.x, 10
            movmsk.w64 r5.x
            stg.u32 g[r2.x], r3.x, 1
            stg.u32 g[r2.x+256], r4.x, 2
            stg.u32 g[r2.x+512], r5.x, 2
        ";
        let (r, _) = run_group(g, 64, body, &[], 64 * 3 + 1);
        for (i, &v) in r[..64].iter().enumerate() {
            assert_eq!(v, if i < 20 { 11 } else { 12 }, "{g}: fiber {i}");
        }
        // Each fiber stored 2 dwords at 256 + 4i, overlapping its
        // neighbour's; fiber 63's pair survives last: its side's mask.
        assert_eq!(
            &r[64 + 63..64 + 65],
            &[0xfff0_0000, 0xffff_ffff],
            "{g}: else mask"
        );
        assert_eq!(r[64], 0x000f_ffff, "{g}: then mask, stored by fiber 0");
        assert_eq!(&r[128 + 63..128 + 65], &[u32::MAX, u32::MAX], "{g}: joined");
    }
}

#[test]
fn loops_run_per_fiber_trip_counts() {
    for g in GENS {
        // sum = 0 + 1 + ... + (id - 1), a loop of `id` iterations.
        let body = "
            mov.u32u32 r3.x, 0
            mov.u32u32 r4.x, 0
        loop:
            cmps.u.ge p0.x, r4.x, r0.x
            br p0.x, #done
            add.u r3.x, r3.x, r4.x
            add.u r4.x, r4.x, 1
            jump #loop
        done:
            (jp)stg.u32 g[r2.x], r3.x, 1
        ";
        let (r, stats) = run_group(g, 64, body, &[], 64);
        let want: Vec<u32> = (0..64).map(|i| i * (i.max(1) - 1) / 2).collect();
        assert_eq!(r, want, "{g}");
        // The wave runs the loop until its longest fiber leaves: 63 full
        // iterations of 5 instructions, the final test, then the tail.
        assert_eq!(stats.instructions, 3 + 2 + 63 * 5 + 2 + 2, "{g}");
    }
}

#[test]
fn getone_elects_the_first_active_fiber_and_bany_ball_are_uniform() {
    for g in GENS {
        // Only odd fibers reach the getone: fiber 1 is elected.
        let body = "
            mov.u32u32 r3.x, 0
            and.b r4.x, r0.x, 1
            cmps.u.eq p0.x, r4.x, 0
            br p0.x, #skip
            getone #skip
            mov.u32u32 r3.x, 1
        skip:
            (jp)cmps.u.eq p0.x, r0.x, 37
            bany p0.x, #any
            add.u r3.x, r3.x, 100
        any:
            (jp)cmps.u.lt p0.y, r0.x, 63
            ball p0.y, #all
            add.u r3.x, r3.x, 1000
        all:
            (jp)stg.u32 g[r2.x], r3.x, 1
        ";
        let (r, _) = run_group(g, 64, body, &[], 64);
        for (i, &v) in r.iter().enumerate() {
            // bany jumps for all (fiber 37 is true); ball does not (63 is
            // false), so every fiber adds 1000.
            let want = 1000 + u32::from(i == 1);
            assert_eq!(v, want, "{g}: fiber {i}");
        }
    }
}

#[test]
fn predication_switches_fibers_off_without_branching() {
    for g in GENS {
        let body = "
            mov.u32u32 r3.x, 0
            cmps.u.lt p0.x, r0.x, 10
            predt
            mov.u32u32 r3.x, 1
            predf
            mov.u32u32 r3.x, 2
            prede
            add.u r3.x, r3.x, 10
            stg.u32 g[r2.x], r3.x, 1
        ";
        let (r, _) = run_group(g, 64, body, &[], 64);
        for (i, &v) in r.iter().enumerate() {
            assert_eq!(v, if i < 10 { 11 } else { 12 }, "{g}: fiber {i}");
        }
    }
}

#[test]
fn call_and_ret_return_after_their_own_call() {
    for g in GENS {
        let body = "
            mov.u32u32 r3.x, 1
            call #double
            call #double
            add.u r3.x, r3.x, 3
            stg.u32 g[r2.x], r3.x, 1
            end
        double:
            add.u r3.x, r3.x, r3.x
            ret
        ";
        let (r, _) = run_group(g, 1, body, &[], 1);
        assert_eq!(r, [7], "{g}");
    }
}

#[test]
fn the_preamble_runs_once_and_its_consts_reach_every_wave() {
    for g in GENS {
        // The preamble (one fiber, after getone) stores c1.x + 5 in c3.x;
        // every fiber of every work group then reads it.
        let mut rig = Rig::new(g);
        let out = rig.poisoned(4 * 128);
        let p = rig.program(&format!(
            "shps #main
             getone #main
             add.u r4.x, c1.x, 5
             stc.u32 c[12], r4.x, 1
             (sy)(ss)shpe
             main:
             (jp)shl.b r0.w, r0.x, 2
             add.u r2.x, c0.x, r0.w
             mov.u32u32 r2.y, c0.y
             shl.b r5.x, r1.x, 9
             add.u r2.x, r2.x, r5.x
             mov.u32u32 r3.x, c3.x
             {STORE_R3X}"
        ));
        let mut d = rig.dispatch(p);
        d.local_size = [128, 1, 1];
        d.group_count = [4, 1, 1];
        d.consts = address_consts(out, &[37]);
        let stats = rig.run_ok(&d);
        assert_eq!(rig.read(out, 4 * 128), vec![42; 4 * 128], "{g}");
        // 8 waves: the first runs the 5 preamble instructions, the others
        // jump from shps straight to the main body (7 + end).
        assert_eq!(stats.instructions, 5 + 8 * 8 + 7, "{g}");
    }
}
