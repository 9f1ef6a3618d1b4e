//! Cases for control flow and function-local memory: branches, loops, switch, calls,
//! local arrays (promoted to SSA or placed in scratch) and private globals.

use super::*;

const N: usize = 256;

fn local_array_const() -> Case {
    let a = random_f32(20, N * 4, -4.0, 4.0);
    let v = |i: usize| [a[i * 4], a[i * 4 + 1], a[i * 4 + 2], a[i * 4 + 3]];
    let mut o = Vec::new();
    for i in 0..N {
        let (v0, v1) = (v(i), v((i + 1) % N));
        let mut v2 = [v0[0] * v1[1], v0[1] * v1[2], v0[2] * v1[3], v0[3] * v1[0]];
        v2[1] += v0[3];
        o.extend((0..4).map(|k| v2[k] + v1[k]));
    }
    Case::new("local_array_const", 4)
        .ssbo(0, fbytes(&a))
        .ssbo(1, vec![0; N * 16])
        .expect(Expect::F32 {
            values: o,
            tolerance: 0.0,
        })
}

fn local_array_dynamic() -> Case {
    let a = random(21, N);
    let mut o = Vec::new();
    for i in 0..N {
        let mut t = [0u32; 16];
        for (k, e) in t.iter_mut().enumerate() {
            *e = a[(i + k) % N] ^ k as u32;
        }
        let mut acc = 0u32;
        for k in 0..16 {
            acc = acc.wrapping_mul(31).wrapping_add(t[(k * 7 + i) & 15]);
        }
        t[i & 15] = acc;
        o.push(t[(i + 3) & 15].wrapping_add(t[i & 15]));
    }
    Case::new("local_array_dynamic", 4)
        .ssbo(0, bytes(&a))
        .ssbo(1, vec![0; N * 4])
        .expect(Expect::U32(o))
}

fn structs_functions() -> Case {
    let a: Vec<i32> = random(22, N).iter().map(|r| (*r as i32) >> 12).collect();
    let mut o = Vec::new();
    for i in 0..N {
        let (x, y) = (a[i], a[(i + 9) % N]);
        let (lo, hi) = (x.min(y) - 3, x.max(y) + 3);
        let q = x.abs() / 7;
        o.extend_from_slice(&[hi - lo, y - lo, q, x.abs() - q * 7]);
    }
    Case::new("structs_functions", 4)
        .ssbo(0, ibytes(&a))
        .ssbo(1, vec![0; N * 16])
        .expect(Expect::U32(o.iter().map(|v| *v as u32).collect()))
}

fn private_globals() -> Case {
    let mut o = Vec::new();
    for i in 0..N as u32 {
        let mut counter = 5u32;
        let mut history = [0u32; 4];
        for by in [i, 3] {
            history[(counter & 3) as usize] = by;
            counter += by;
        }
        o.push(counter);
        o.push(history[0] + history[1] * 10 + history[2] * 100 + history[3] * 1000);
    }
    Case::new("private_globals", 4)
        .ssbo(0, vec![0; N * 8])
        .expect(Expect::U32(o))
}

fn if_else() -> Case {
    let mut a: Vec<i32> = random(23, N).iter().map(|r| (*r as i32) >> 23).collect();
    a[5] = 0;
    let o: Vec<u32> = a
        .iter()
        .map(|&x| {
            let r = if x > 100 {
                if x & 1 == 0 {
                    (x - 100) * 2
                } else {
                    x - 100 + 1
                }
            } else if x < -100 {
                -x
            } else if x == 0 {
                1000
            } else {
                7
            };
            (if r > 50 { r } else { -r }) as u32
        })
        .collect();
    Case::new("if_else", 4)
        .ssbo(0, ibytes(&a))
        .ssbo(1, vec![0; N * 4])
        .expect(Expect::U32(o))
}

fn loops() -> Case {
    let a = random(24, N);
    let mut o = Vec::new();
    for i in 0..N {
        let mut sum = 0u32;
        for k in 0..64 {
            let v = a[(i + k) % N];
            if v & 3 == 0 {
                continue;
            }
            if v % 97 == 5 {
                break;
            }
            sum += v & 0xff;
        }
        let (mut n, mut steps) = (a[i] & 255, 0u32);
        while n != 1 && n != 0 && steps < 200 {
            n = if n & 1 == 1 { 3 * n + 1 } else { n / 2 };
            steps += 1;
        }
        o.extend_from_slice(&[sum, steps]);
    }
    Case::new("loops", 4)
        .ssbo(0, bytes(&a))
        .ssbo(1, vec![0; N * 8])
        .expect(Expect::U32(o))
}

fn nested_loops() -> Case {
    let mut o = Vec::new();
    for i in 0..N as u32 {
        let mut acc = 0u32;
        let mut done = false;
        let mut y = 0;
        while y < 8 && !done {
            for x in 0..8u32 {
                acc += (x ^ y) * (i + 1);
                if acc > 4000 + i * 10 {
                    done = true;
                    break;
                }
                if x > y {
                    break;
                }
            }
            y += 1;
        }
        o.push(acc);
    }
    Case::new("nested_loops", 4)
        .ssbo(0, vec![0; N * 4])
        .expect(Expect::U32(o))
}

fn switch() -> Case {
    let o: Vec<u32> = (0..N as i32)
        .map(|i| {
            let r = match i % 9 - 2 {
                -2 => 11,
                -1 => 10,
                0 | 1 => 100,
                4 => 1000,
                6 => i,
                _ => 995,
            };
            r as u32
        })
        .collect();
    Case::new("switch", 4)
        .ssbo(0, vec![0; N * 4])
        .expect(Expect::U32(o))
}

fn early_return() -> Case {
    let a: Vec<i32> = random(25, N)
        .iter()
        .map(|r| ((*r >> 20) as i32) - 600)
        .collect();
    let o: Vec<u32> = a
        .iter()
        .map(|&x| {
            let c = if x < 0 {
                -1
            } else {
                (1..8).find(|k| x < k * 1000).unwrap_or(99)
            };
            if c == 99 {
                0x5555_5555
            } else {
                (c * 3) as u32
            }
        })
        .collect();
    Case::new("early_return", 4)
        .ssbo(0, ibytes(&a))
        .ssbo(1, vec![0x55; N * 4])
        .expect(Expect::U32(o))
}

fn do_while() -> Case {
    let a: Vec<u32> = random(26, N)
        .iter()
        .enumerate()
        .map(|(i, r)| if i % 10 == 0 { i as u32 / 10 } else { *r })
        .collect();
    let o: Vec<u32> = a
        .iter()
        .map(|&x| {
            let (mut v, mut digits, mut sum) = (x, 0, 0);
            loop {
                sum += v % 10;
                v /= 10;
                digits += 1;
                if v == 0 {
                    break;
                }
            }
            sum + digits * 1000
        })
        .collect();
    Case::new("do_while", 4)
        .ssbo(0, bytes(&a))
        .ssbo(1, vec![0; N * 4])
        .expect(Expect::U32(o))
}

fn register_pressure() -> Case {
    let a = random(27, 1024);
    let o: Vec<u32> = (0..N)
        .map(|i| {
            let v: Vec<u32> = (0..256).map(|k| a[(i * 7 + k) & 1023]).collect();
            let acc = (0..256).rev().fold(0u32, |acc, k| {
                acc.wrapping_mul(31).wrapping_add(v[k] ^ k as u32)
            });
            let acc2 = (0..256).fold(1u32, |acc, k| acc.wrapping_mul(17).wrapping_add(v[k]));
            acc ^ acc2
        })
        .collect();
    Case::new("register_pressure", 4)
        .ssbo(0, bytes(&a))
        .ssbo(1, vec![0; N * 4])
        .expect(Expect::U32(o))
}

pub fn all() -> Vec<Case> {
    vec![
        register_pressure(),
        local_array_const(),
        local_array_dynamic(),
        structs_functions(),
        private_globals(),
        if_else(),
        loops(),
        nested_loops(),
        switch(),
        early_return(),
        do_while(),
    ]
}
