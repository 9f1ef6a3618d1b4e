//! cat1..cat4 on the shader processor: conversions, the ALU and SFU
//! operations, half registers, `(rptN)`/`(r)` and relative addressing.
//! Expected values come from Rust's own arithmetic (IEEE and two's
//! complement), not from the ISA's evaluation functions the model calls.

mod shader_rig;
use shader_rig::*;

#[test]
fn conversions_clamp_round_and_truncate() {
    for g in GENS {
        let body = "
            cov.f32u16 hr8.x, c1.x
            cov.u16u32 r3.x, hr8.x
            stg.u32 g[r2.x], r3.x, 1
            cov.f32s16 hr8.x, c1.y
            cov.s16s32 r3.x, hr8.x
            stg.u32 g[r2.x+4], r3.x, 1
            cov.f32s32 r3.x, c1.z
            stg.u32 g[r2.x+8], r3.x, 1
            cov.f32s32 (even)r3.x, c1.w
            stg.u32 g[r2.x+12], r3.x, 1
            cov.f32f16 hr8.x, c2.x
            cov.f16f32 r3.x, hr8.x
            stg.u32 g[r2.x+16], r3.x, 1
            cov.u32u16 hr8.x, c2.y
            cov.u16u32 r3.x, hr8.x
            stg.u32 g[r2.x+20], r3.x, 1
            cov.s32f32 r3.x, c2.z
            stg.u32 g[r2.x+24], r3.x, 1
            mov.f32f32 r3.x, (1.500000)
            stg.u32 g[r2.x+28], r3.x, 1
            cov.f32u32 r3.x, c2.w
            stg.u32 g[r2.x+32], r3.x, 1
        ";
        let consts = [
            f(70000.0),
            f(-70000.0),
            f(-1.5),
            f(2.5),
            f(1.0 / 3.0),
            0x12345,
            (-7i32) as u32,
            f(-3.0),
        ];
        let r = run_single(g, body, &consts, 9);
        // A 16-bit destination clamps (ARCHITECTURE.md's example rule).
        assert_eq!(r[0], 65535, "{g}: cov.f32u16 70000.0");
        assert_eq!(r[1], (-32768i32) as u32, "{g}: cov.f32s16 -70000.0");
        // Unmarked conversions round toward zero; (even) to nearest even.
        assert_eq!(r[2], (-1i32) as u32, "{g}");
        assert_eq!(r[3], 2, "{g}");
        // 1/3 through f16: the nearest half is 0x3555 = 0.333251953125.
        assert_eq!(f32::from_bits(r[4]), 0.333_251_95, "{g}");
        assert_eq!(r[5], 0x2345, "{g}: integer narrowing truncates");
        assert_eq!(f32::from_bits(r[6]), -7.0, "{g}");
        assert_eq!(f32::from_bits(r[7]), 1.5, "{g}");
        assert_eq!(r[8], 0, "{g}: a negative float to u32 clamps to 0");
    }
}

#[test]
fn integer_and_bit_operations() {
    for g in GENS {
        let body = "
            add.u r3.x, c1.x, c1.y
            stg.u32 g[r2.x], r3.x, 1
            sub.s r3.x, c1.z, c1.x
            stg.u32 g[r2.x+4], r3.x, 1
            mov.u32u32 r4.x, c1.w
            shl.b r3.x, r4.x, 33
            stg.u32 g[r2.x+8], r3.x, 1
            shr.b r3.x, c1.z, 4
            stg.u32 g[r2.x+12], r3.x, 1
            ashr.b r3.x, c1.z, 4
            stg.u32 g[r2.x+16], r3.x, 1
            min.s r3.x, c1.z, c1.w
            stg.u32 g[r2.x+20], r3.x, 1
            max.u r3.x, c1.z, c1.w
            stg.u32 g[r2.x+24], r3.x, 1
            xor.b r3.x, c1.x, c2.x
            stg.u32 g[r2.x+28], r3.x, 1
            not.b r3.x, c2.x
            stg.u32 g[r2.x+32], r3.x, 1
            mul.u24 r3.x, c2.y, c2.y
            stg.u32 g[r2.x+36], r3.x, 1
            clz.b r3.x, c1.w
            stg.u32 g[r2.x+40], r3.x, 1
            bfrev.b r3.x, c1.w
            stg.u32 g[r2.x+44], r3.x, 1
            cbits.b r3.x, c2.x
            stg.u32 g[r2.x+48], r3.x, 1
            (sat)add.u r3.x, c1.x, c1.y
            stg.u32 g[r2.x+52], r3.x, 1
            and.b r3.x, c2.x, 12
            stg.u32 g[r2.x+56], r3.x, 1
            absneg.s r3.x, (neg)c1.z
            stg.u32 g[r2.x+60], r3.x, 1
        ";
        let a = 0xffff_fff0u32;
        let consts = [a, 0x20, (-100i32) as u32, 0x100, 0b1011_0110, 0x1000];
        let r = run_single(g, body, &consts, 16);
        assert_eq!(r[0], a.wrapping_add(0x20), "{g}: add.u wraps");
        assert_eq!(r[1], (-100i32).wrapping_sub(a as i32) as u32, "{g}");
        assert_eq!(r[2], 0x100 << 1, "{g}: shift amounts are taken modulo 32");
        assert_eq!(r[3], ((-100i32) as u32) >> 4, "{g}");
        assert_eq!(r[4], ((-100i32) >> 4) as u32, "{g}");
        assert_eq!(r[5], (-100i32) as u32, "{g}: min.s is signed");
        assert_eq!(r[6], (-100i32) as u32, "{g}: max.u is unsigned");
        assert_eq!(r[7], a ^ 0b1011_0110, "{g}");
        assert_eq!(r[8], !0b1011_0110u32, "{g}");
        assert_eq!(r[9], 0x100_0000, "{g}: mul.u24");
        assert_eq!(r[10], 0x100u32.leading_zeros(), "{g}");
        assert_eq!(r[11], 0x100u32.reverse_bits(), "{g}");
        assert_eq!(r[12], 0b1011_0110u32.count_ones(), "{g}");
        assert_eq!(r[13], u32::MAX, "{g}: (sat)add.u saturates");
        assert_eq!(r[14], 0b0100, "{g}");
        assert_eq!(r[15], 100, "{g}: (neg) on a signed source");
    }
}

#[test]
fn float_operations_and_comparisons() {
    for g in GENS {
        let body = "
            add.f r3.x, c1.x, c1.y
            stg.u32 g[r2.x], r3.x, 1
            mul.f r3.x, c1.x, c1.y
            stg.u32 g[r2.x+4], r3.x, 1
            (sat)add.f r3.x, c1.x, c1.y
            stg.u32 g[r2.x+8], r3.x, 1
            min.f r3.x, c1.x, c1.y
            stg.u32 g[r2.x+12], r3.x, 1
            cmps.f.lt r3.x, c1.y, c1.x
            stg.u32 g[r2.x+16], r3.x, 1
            cmps.f.ge r3.x, c1.y, c1.x
            stg.u32 g[r2.x+20], r3.x, 1
            floor.f r3.x, c1.y
            stg.u32 g[r2.x+24], r3.x, 1
            absneg.f r3.x, (neg)(abs)c1.y
            stg.u32 g[r2.x+28], r3.x, 1
            add.f r3.x, c1.x, (neg)(pi)
            stg.u32 g[r2.x+32], r3.x, 1
            mov.u32u32 r4.y, c1.x
            mad.f32 r3.x, c1.x, r4.y, c1.y
            stg.u32 g[r2.x+36], r3.x, 1
            mov.u32u32 r4.x, c1.z
            sel.b32 r3.x, c1.x, r4.x, c1.y
            stg.u32 g[r2.x+40], r3.x, 1
            mov.u32u32 r4.x, c1.w
            sel.b32 r3.x, c1.x, r4.x, c1.y
            stg.u32 g[r2.x+44], r3.x, 1
            mov.u32u32 r4.y, c2.x
            mad.u24 r3.x, c2.x, r4.y, c2.y
            stg.u32 g[r2.x+48], r3.x, 1
        ";
        let consts = [f(3.5), f(-2.25), 1, 0, 1000, 7];
        let r = run_single(g, body, &consts, 13);
        let v = |i: usize| f32::from_bits(r[i]);
        assert_eq!(v(0), 1.25, "{g}");
        assert_eq!(v(1), -7.875, "{g}");
        assert_eq!(v(2), 1.0, "{g}: (sat) clamps to [0, 1]");
        assert_eq!(v(3), -2.25, "{g}");
        assert_eq!(r[4], 1, "{g}: a comparison writes 1 for true");
        assert_eq!(r[5], 0, "{g}: and 0 for false");
        assert_eq!(v(6), -3.0, "{g}");
        assert_eq!(v(7), -2.25, "{g}");
        assert_eq!(v(8), 3.5 - std::f32::consts::PI, "{g}");
        assert_eq!(v(9), 3.5f32 * 3.5 - 2.25, "{g}");
        assert_eq!(v(10), 3.5, "{g}: sel.b32 picks src1 when src2 is not 0");
        assert_eq!(v(11), -2.25, "{g}: and src3 when it is 0");
        assert_eq!(r[12], 1_000_007, "{g}");
    }
}

#[test]
fn special_functions() {
    for g in GENS {
        let body = "
            rcp r3.x, c1.x
            stg.u32 g[r2.x], r3.x, 1
            rsq r3.x, c1.x
            stg.u32 g[r2.x+4], r3.x, 1
            sqrt r3.x, c1.y
            stg.u32 g[r2.x+8], r3.x, 1
            exp2 r3.x, c1.z
            stg.u32 g[r2.x+12], r3.x, 1
            log2 r3.x, c1.w
            stg.u32 g[r2.x+16], r3.x, 1
            sin r3.x, c2.x
            stg.u32 g[r2.x+20], r3.x, 1
            cos r3.x, c2.x
            stg.u32 g[r2.x+24], r3.x, 1
        ";
        let consts = [f(4.0), f(2.0), f(3.0), f(0.125), f(0.5)];
        let r = run_single(g, body, &consts, 7);
        let v = |i: usize| f32::from_bits(r[i]);
        assert_eq!(v(0), 0.25, "{g}");
        assert_eq!(v(1), 0.5, "{g}");
        assert_eq!(v(2), std::f32::consts::SQRT_2, "{g}");
        assert_eq!(v(3), 8.0, "{g}");
        assert_eq!(v(4), -3.0, "{g}");
        assert!((v(5) - 0.5f32.sin()).abs() < 1e-6, "{g}: {}", v(5));
        assert!((v(6) - 0.5f32.cos()).abs() < 1e-6, "{g}: {}", v(6));
    }
}

#[test]
fn half_registers_are_halves_of_full_registers() {
    for g in GENS {
        // hr8.x/hr8.y are the low/high halves of r4.x; hr9.x is r4.z's low
        // half. A half-precision add of two f16 halves.
        let body = "
            mov.u32u32 r4.x, c1.x
            mov.u16u16 hr8.x, hc1.y
            stg.u32 g[r2.x], r4.x, 1
            mov.u32u32 r3.x, c1.z
            mov.u16u16 hr8.y, hr6.x
            stg.u32 g[r2.x+4], r4.x, 1
            mov.f16f16 hr9.x, h(0.500000)
            add.f hr9.y, hr9.x, hr9.x
            stg.u32 g[r2.x+8], r4.z, 1
            add.u hr9.y, hr9.y, h(1)
            cov.u16u32 r3.x, hr9.y
            stg.u32 g[r2.x+12], r3.x, 1
            stg.u16 g[r2.x+16], hr8.x, 1
        ";
        let consts = [0xaaaa_bbbb, 0x1234, 0x5678_9abc];
        let r = run_single(g, body, &consts, 5);
        assert_eq!(
            r[0], 0xaaaa_1234,
            "{g}: writing hr8.x leaves r4.x's high half"
        );
        assert_eq!(r[1], 0x9abc_1234, "{g}: hr6.x is r3.x's low half");
        // f16 0.5 is 0x3800 and 1.0 is 0x3c00, in r4.z's low and high halves.
        assert_eq!(r[2], 0x3c00_3800, "{g}");
        assert_eq!(r[3], 0x3c01, "{g}");
        assert_eq!(r[4], 0xdead_0000 | 0x1234, "{g}: stg.u16 stores two bytes");
    }
}

#[test]
fn repeat_steps_the_registers_marked_r() {
    for g in GENS {
        let body = "
            (rpt3)mov.u32u32 r4.x, (r)c1.x
            (rpt3)add.u r5.x, (r)r4.x, 100
            (rpt1)add.u r6.x, (r)r4.x, r4.x
            stg.u32 g[r2.x], r5.x, 4
            stg.u32 g[r2.x+16], r6.x, 2
        ";
        let r = run_single(g, body, &[1, 2, 3, 4], 6);
        assert_eq!(r, [101, 102, 103, 104, 2, 3], "{g}");
    }
}

#[test]
fn relative_addressing_through_a0() {
    for g in GENS {
        // a0.x = 2 (from a half register): r<a0.x + 16> is r4.z (component
        // 18), c<a0.x + 4> is c1.z.
        let body = "
            mov.u16u16 hr10.x, 2
            mova a0.x, hr10.x
            mov.u32u32 r<a0.x + 16>, c<a0.x + 4>
            stg.u32 g[r2.x], r4.z, 1
            mov.u32u32 r3.x, r<a0.x + 16>
            stg.u32 g[r2.x+4], r3.x, 1
        ";
        let r = run_single(g, body, &[10, 20, 30, 40], 2);
        assert_eq!(r, [30, 30], "{g}");
    }
}

#[test]
fn wmm_scales_a_vec4_by_a_sum_and_wmm_accu_accumulates() {
    // ir3-cat3.xml's doc: result = x * (y1 + y2 + y3 + y4), written
    // 1 << (imm / 32) times; wmm.accu adds it to the destination, except
    // the first register, which it overwrites. By hand: x = (1, 2, 3, 4),
    // y = (0.5, 0.25, 0.125, 1.125), sum 2: result (2, 4, 6, 8).
    for g in GENS {
        let body = "
            mov.f32f32 r4.x, c1.x
            mov.f32f32 r4.y, c1.y
            mov.f32f32 r4.z, c1.z
            mov.f32f32 r4.w, c1.w
            mov.f32f32 r5.x, c2.x
            mov.f32f32 r5.y, c2.y
            mov.f32f32 r5.z, c2.z
            mov.f32f32 r5.w, c2.w
            wmm r6.x, r4.x, r5.x, 32
            wmm.accu r6.x, r4.x, r5.x, 0
            stg.u32 g[r2.x], r6.x, 4
            stg.u32 g[r2.x+16], r7.x, 4
            wmm r6.x, (neg)r4.x, r5.x, 0
            stg.u32 g[r2.x+32], r6.x, 4
        ";
        let consts = [1.0, 2.0, 3.0, 4.0, 0.5, 0.25, 0.125, 1.125].map(f32::to_bits);
        let r = run_single(g, body, &consts, 12);
        let want = [
            2.0, 8.0, 12.0, 16.0, 2.0, 4.0, 6.0, 8.0, -2.0, -4.0, -6.0, -8.0,
        ];
        assert_eq!(r, want.map(f32::to_bits), "{g}");
    }
}
