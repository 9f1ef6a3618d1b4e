//! Cases whose results depend on the hardware rules the compiler relies on: they run with
//! the corpus on the interpreter and the simulator, and hardware_rules.rs runs each on the
//! simulator again with the checks of its rule.

use super::*;

const N: usize = 256;

pub fn rule_shared_offsets() -> Case {
    let mut o = Vec::new();
    for g in 0..N as u32 {
        let l = g % 64;
        o.extend_from_slice(&[l, l + 100, l * 3, l * 5, l * 7]);
    }
    Case::new("rule_shared_offsets", 4)
        .ssbo(0, bytes(&[SHARED_OFFSETS_BASE]))
        .ssbo(1, vec![0; N * 20])
        .expect(Expect::U32(o))
}

/// The run-time base rule_shared_offsets reads: element `base + 2l - 1025` is element `2l`.
pub const SHARED_OFFSETS_BASE: u32 = 1025;

pub fn rule_sat_select() -> Case {
    let a = random_f32(50, N, -2.0, 3.0);
    let o: Vec<f32> = (0..N)
        .map(|i| {
            let (x, y) = (a[i], a[255 - i]);
            let c = (if x > y { x } else { y * 2.0 }).clamp(0.0, 1.0);
            let t = (if x < 0.5 { x } else { -y }).clamp(0.0, 1.0);
            c + t * t * (3.0 - 2.0 * t)
        })
        .collect();
    Case::new("rule_sat_select", 4)
        .ssbo(0, fbytes(&a))
        .ssbo(1, vec![0; N * 4])
        .expect(Expect::F32 {
            values: o,
            tolerance: 1e-5,
        })
}

pub fn rule_u16_convert() -> Case {
    // Floats far outside both 16-bit ranges, and words with their high halves set.
    let f = random_f32(51, N, -100_000.0, 100_000.0);
    let u = random(52, N);
    // The constants the shader converts, folded by the compiler.
    // uint16_t(70000.5) + (uint16_t(-3.0) << 16) + uint16_t(0x12345) * 3 + int16_t(-40000.0)
    let folded = (65535u32 + 0x2345 * 3).wrapping_add(-32768i32 as u32);
    let mut o = Vec::new();
    for i in 0..N {
        // Float to 16 bits clamps on ir3 (cov.f32u16, cov.f32s16); integer narrowing
        // truncates (cov.u32u16).
        o.push(f[i].clamp(0.0, 65535.0) as u32);
        o.push(u[i] & 0xffff);
        o.push(f[i].clamp(-32768.0, 32767.0) as i32 as u32);
        o.push(folded);
    }
    Case::new("rule_u16_convert", 4)
        .ssbo(0, fbytes(&f))
        .ssbo(1, bytes(&u))
        .ssbo(2, vec![0; N * 16])
        .expect(Expect::U32(o))
}

pub fn rule_shifts() -> Case {
    let a = random(53, N);
    let mut o = Vec::new();
    for (i, &x) in a.iter().enumerate() {
        // The amount is taken modulo the width: 32, or 16 for 16-bit shifts.
        let n = (i % 32) as u32;
        let (h, m) = (x as u16, n % 16);
        o.extend_from_slice(&[
            x << n,
            x >> n,
            ((x as i32) >> n) as u32,
            u32::from(h << m) | u32::from(h >> m) << 16,
            x << 8,
            0,
            0,
            ((x as i32) >> 31) as u32,
        ]);
    }
    Case::new("rule_shifts", 4)
        .ssbo(0, bytes(&a))
        .ssbo(1, vec![0; N * 32])
        .expect(Expect::U32(o))
}

pub fn all() -> Vec<Case> {
    vec![
        rule_shared_offsets(),
        rule_sat_select(),
        rule_u16_convert(),
        rule_shifts(),
    ]
}
