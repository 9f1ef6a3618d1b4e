//! Cases for memory: uniform buffers, push constants, shared memory with barriers, atomics,
//! descriptor arrays and runtime array lengths.

use super::*;
use parsnip_compiler::descriptor_layout::DescriptorKind;

const N: usize = 256;

fn ubo_std140() -> Case {
    // std140: offset (vec3) @0, scale @12, weights[4] @16 stride 16, lights[2] @80 stride 16
    // (dir @0, power @12), range @112.
    let mut u = vec![0f32; 30];
    u[..3].copy_from_slice(&[1.0, -2.0, 0.5]);
    u[3] = 1.5;
    for k in 0..4 {
        u[4 + k * 4] = 0.25 * (k as f32 + 1.0);
    }
    u[20..24].copy_from_slice(&[0.5, 0.25, -1.0, 10.0]);
    u[24..28].copy_from_slice(&[-0.5, 2.0, 3.0, 20.0]);
    u[28] = f32::from_bits(5);
    u[29] = f32::from_bits(40);
    let mut o = Vec::new();
    for i in 0..N {
        let l = 20 + (i & 1) * 4;
        let w = u[4 + (i % 4) * 4];
        for c in 0..3 {
            o.push(u[c] * u[3] + u[l + c] * w);
        }
        o.push(u[l + 3] + (i as i32).clamp(5, 40) as f32);
    }
    Case::new("ubo_std140", 4)
        .ubo(0, fbytes(&u))
        .ssbo(1, vec![0; N * 16])
        .expect(Expect::F32 {
            values: o,
            tolerance: 1e-6,
        })
}

/// gl_DeviceIndex on a device group of one device: 0, so each value is the first
/// uniform plus the second (std140 strides the array by 16 bytes).
fn device_index() -> Case {
    let u: Vec<u32> = random(47, 33 * 4).iter().map(|r| r / 10).collect();
    let mut case = Case::new("device_index", 1)
        .ssbo(0, vec![0; 96 * 4])
        .expect(Expect::U32(vec![u[0] + u[4]; 96]))
        .ubo(1, bytes(&u));
    case.groups = [2, 4, 1];
    case
}

/// amber's buffer: 16 words filled with 123; each of 4 work groups of 3 leaves 7 + 3.
fn shared_atomics_barrier() -> Case {
    let mut want = vec![123u32; 16];
    want[..4].copy_from_slice(&[10; 4]);
    Case::new("shared_atomics_barrier", 4)
        .ssbo(0, bytes(&[123u32; 16]))
        .expect(Expect::U32(want))
}

fn push_constants() -> Case {
    let (base, gain, mask, table) = (1000u32, 0.75f32, [0x35u32, 0x100], [7u32, 70, 700, 7000]);
    let mut pc = vec![base, gain.to_bits(), mask[0], mask[1]];
    pc.extend_from_slice(&table);
    let o: Vec<u32> = (0..N as u32)
        .map(|i| {
            base + (i as f32 * gain) as u32 + ((i & mask[0]) | mask[1]) + table[(i & 3) as usize]
        })
        .collect();
    Case::new("push_constants", 4)
        .push(bytes(&pc))
        .ssbo(0, vec![0; N * 4])
        .expect(Expect::U32(o))
}

fn shared_reverse() -> Case {
    let a = random(30, N);
    let o: Vec<u32> = (0..N)
        .map(|g| a[(g & !63) + 63 - (g & 63)] + (g & 63) as u32)
        .collect();
    Case::new("shared_reverse", 4)
        .ssbo(0, bytes(&a))
        .ssbo(1, vec![0; N * 4])
        .expect(Expect::U32(o))
}

fn shared_reduction() -> Case {
    let a: Vec<u32> = random(31, N).iter().map(|r| r >> 8).collect();
    let o: Vec<u32> = a
        .chunks(128)
        .map(|c| c.iter().fold(0u32, |s, v| s.wrapping_add(*v)))
        .collect();
    Case::new("shared_reduction", 2)
        .ssbo(0, bytes(&a))
        .ssbo(1, vec![0; 8])
        .expect(Expect::U32(o))
}

fn atomics_ssbo() -> Case {
    let mut init = vec![0u32, i32::MAX as u32, 0, u32::MAX, 0, 0, 0, 0];
    init.extend(std::iter::repeat_n(0, N));
    let v = |i: u32| i.wrapping_mul(2_654_435_761);
    let mut want = vec![
        (0..N as u32).sum(),
        (0..N as u32).map(|i| v(i) as i32).min().unwrap() as u32,
        (0..N as u32).map(|i| v(i) >> 4).max().unwrap(),
        0x8000_0000,
        0x1fff_ffff,
        (0..N as u32).fold(0, |x, i| x ^ v(i)),
        1,
        1,
    ];
    want.extend(1..=N as u32);
    Case::new("atomics_ssbo", 4)
        .ssbo(0, bytes(&init))
        .expect(Expect::U32(want))
}

fn atomics_shared() -> Case {
    let a = random(32, N);
    let mut o = Vec::new();
    for g in a.chunks(64) {
        let mut bins = [0u32; 8];
        for v in g {
            bins[(v & 7) as usize] += 1;
        }
        o.extend_from_slice(&bins);
        o.push(g.iter().map(|v| v >> 8).max().unwrap());
    }
    Case::new("atomics_shared", 4)
        .ssbo(0, bytes(&a))
        .ssbo(1, vec![0; 4 * 36])
        .expect(Expect::U32(o))
}

fn atomics_compare_exchange() -> Case {
    let b: Vec<u32> = random(39, N).iter().map(|r| r | 1).collect();
    let mut o = Vec::new();
    let mut after = Vec::new();
    for (i, &old) in b.iter().enumerate() {
        let (l, i) = ((i % 64) as u32, i as u32);
        // The first exchange matches and stores; the second compares with a value that
        // is no longer (or never was) there, and returns what is.
        o.extend_from_slice(&[l * 3, l + 1000, l + 1000, old ^ (i ^ 0x5a5a_5a5a)]);
        after.push(i ^ 0x5a5a_5a5a);
    }
    Case::new("atomics_compare_exchange", 4)
        .ssbo(0, bytes(&b))
        .expect(Expect::U32(after))
        .ssbo(1, vec![0; N * 16])
        .expect(Expect::U32(o))
}

fn descriptor_array() -> Case {
    let inputs: Vec<Vec<u32>> = (0..3).map(|k| random(33 + k, N)).collect();
    let o: Vec<u32> = (0..N)
        .map(|i| inputs[i % 3][i].wrapping_add(inputs[2][0]))
        .collect();
    let mut case = Case::new("descriptor_array", 4);
    for (k, data) in inputs.iter().enumerate() {
        case = case.buffer(Buffer {
            set: 0,
            binding: 0,
            element: k as u32,
            kind: DescriptorKind::StorageBuffer,
            data: bytes(data),
            format: None,
        });
    }
    case.buffer(Buffer {
        set: 1,
        binding: 2,
        element: 0,
        kind: DescriptorKind::StorageBuffer,
        data: vec![0; N * 4],
        format: None,
    })
    .expect(Expect::U32(o))
}

fn array_length() -> Case {
    let items = random(36, 37);
    let mut data = vec![0u32, 0, 9, 0];
    data.extend_from_slice(&items);
    let sum = items.iter().fold(9u32, |s, v| s.wrapping_add(*v));
    Case::new("array_length", 1)
        .ssbo(0, bytes(&data))
        .ssbo(1, vec![0; 8])
        .expect(Expect::U32(vec![37, sum]))
}

fn saxpy() -> Case {
    let x = random_f32(37, N, -10.0, 10.0);
    let y = random_f32(38, N, -10.0, 10.0);
    let o: Vec<f32> = x.iter().zip(&y).map(|(x, y)| 2.5 * x + y).collect();
    Case::new("saxpy", 4)
        .push(fbytes(&[2.5]))
        .ssbo(0, fbytes(&x))
        .ssbo(1, fbytes(&y))
        .expect(Expect::F32 {
            values: o,
            tolerance: 1e-6,
        })
}

fn memory_barrier() -> Case {
    let mut v: Vec<u32> = (0..32).collect();
    for round in 0..5 {
        let ring = v.clone();
        v = (0..32).map(|l| ring[(l + 1) % 32] * 3 + round).collect();
    }
    let o: Vec<u32> = (0..64).map(|g| v[g % 32]).collect();
    Case::new("memory_barrier", 2)
        .ssbo(0, vec![0; 64 * 4])
        .expect(Expect::U32(o))
}

/// Null-initialised shared variables: each of 48 invocations adds l + 1 to one word of
/// s[l] and l to the counter, so every invocation reads the same two sums from zeroes.
fn shared_null_initializer() -> Case {
    let sum: u32 = (1..=48).sum();
    let counter: u32 = (0..48).sum();
    let o: Vec<u32> = (0..3 * 48).flat_map(|_| [sum, counter]).collect();
    Case::new("shared_null_initializer", 3)
        .ssbo(0, vec![0; 3 * 48 * 8])
        .expect(Expect::U32(o))
}

pub fn all() -> Vec<Case> {
    vec![
        shared_null_initializer(),
        ubo_std140(),
        push_constants(),
        device_index(),
        shared_atomics_barrier(),
        shared_reverse(),
        shared_reduction(),
        atomics_ssbo(),
        atomics_shared(),
        atomics_compare_exchange(),
        descriptor_array(),
        array_length(),
        saxpy(),
        memory_barrier(),
    ]
}
