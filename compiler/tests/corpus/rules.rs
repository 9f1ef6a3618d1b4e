//! Cases whose results depend on the hardware rules the compiler relies on
//! (hardware_rules.rs checks the compiled code; these check the values, on the
//! interpreter and on the simulator).

use super::*;

const N: usize = 256;

fn rule_shared_offsets() -> Case {
    let o: Vec<u32> = (0..N as u32).map(|g| (g % 64) * 50301).collect();
    Case::new("rule_shared_offsets", 4)
        .ssbo(0, vec![0; N * 4])
        .expect(Expect::U32(o))
}

fn rule_sat_select() -> Case {
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

fn rule_u16_convert() -> Case {
    let f = random_f32(51, N, -100_000.0, 100_000.0);
    let u = random(52, N);
    let mut o = Vec::new();
    for i in 0..N {
        // Float to u16 clamps to [0, 65535] on ir3 (cov.f32u16); integer narrowing
        // truncates.
        o.push(f[i].clamp(0.0, 65535.0) as u32);
        o.push(u[i] & 0xffff);
    }
    Case::new("rule_u16_convert", 4)
        .ssbo(0, fbytes(&f))
        .ssbo(1, bytes(&u))
        .ssbo(2, vec![0; N * 8])
        .expect(Expect::U32(o))
}

fn rule_shifts() -> Case {
    let a = random(53, N);
    let mut o = Vec::new();
    for (i, &x) in a.iter().enumerate() {
        // The amount is taken modulo 32.
        let n = (i % 32) as u32;
        o.extend_from_slice(&[x << n, x >> n, ((x as i32) >> n) as u32]);
    }
    Case::new("rule_shifts", 4)
        .ssbo(0, bytes(&a))
        .ssbo(1, vec![0; N * 12])
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
