//! The compute corpus: GLSL shaders (tests/shaders) with their inputs and results computed
//! independently on the CPU. The same cases run on the IR interpreter after every pass and,
//! once compiled, on the simulator.

#![allow(dead_code)]

mod cases;
mod control;
mod memory;
mod misc;
pub mod on_simulator;
pub mod rules;
mod texel;
pub mod types;

use parsnip_compiler::descriptor_layout::{DescriptorKind, DescriptorLayout};
use rspirv::spirv::ImageFormat;
use std::collections::HashMap;

/// Every case of the corpus.
pub fn all() -> Vec<Case> {
    let mut v = cases::all();
    v.extend(types::all());
    v.extend(control::all());
    v.extend(memory::all());
    v.extend(misc::all());
    v.extend(rules::all());
    v.extend(texel::all());
    v
}

/// A buffer bound to a case.
#[derive(Clone, Debug)]
pub struct Buffer {
    pub set: u32,
    pub binding: u32,
    pub element: u32,
    pub kind: DescriptorKind,
    pub data: Vec<u8>,
    /// A texel buffer view's format (named as SPIR-V names formats).
    pub format: Option<ImageFormat>,
}

/// How a result buffer is compared with what the CPU computed.
#[derive(Clone, Debug)]
pub enum Expect {
    /// Exact 32-bit words.
    U32(Vec<u32>),
    /// f32 values within `tolerance` (absolute, or relative above 1).
    F32 { values: Vec<f32>, tolerance: f32 },
    /// Raw bytes.
    Bytes(Vec<u8>),
}

pub struct Case {
    /// The shader's file name in tests/shaders, without `.comp`.
    pub shader: &'static str,
    pub groups: [u32; 3],
    pub base_group: [u32; 3],
    pub buffers: Vec<Buffer>,
    pub push_constants: Vec<u8>,
    pub spec_constants: HashMap<u32, u64>,
    /// The subgroup size the case requires (VK_EXT_subgroup_size_control).
    pub subgroup_size: Option<u32>,
    /// (index into `buffers`, expected contents).
    pub expect: Vec<(usize, Expect)>,
}

impl Case {
    pub fn new(shader: &'static str, groups: u32) -> Case {
        Case {
            shader,
            groups: [groups, 1, 1],
            base_group: [0; 3],
            buffers: Vec::new(),
            push_constants: Vec::new(),
            spec_constants: HashMap::new(),
            subgroup_size: None,
            expect: Vec::new(),
        }
    }

    pub fn ssbo(mut self, binding: u32, data: Vec<u8>) -> Case {
        self.buffers.push(Buffer {
            set: 0,
            binding,
            element: 0,
            kind: DescriptorKind::StorageBuffer,
            data,
            format: None,
        });
        self
    }

    pub fn ubo(mut self, binding: u32, data: Vec<u8>) -> Case {
        self.buffers.push(Buffer {
            set: 0,
            binding,
            element: 0,
            kind: DescriptorKind::UniformBuffer,
            data,
            format: None,
        });
        self
    }

    /// A texel buffer view of `format` over `data` at element `element` of `binding`.
    pub fn texel(
        mut self,
        binding: u32,
        element: u32,
        kind: DescriptorKind,
        format: ImageFormat,
        data: Vec<u8>,
    ) -> Case {
        self.buffers.push(Buffer {
            set: 0,
            binding,
            element,
            kind,
            data,
            format: Some(format),
        });
        self
    }

    pub fn buffer(mut self, b: Buffer) -> Case {
        self.buffers.push(b);
        self
    }

    /// The last buffer added must end up holding `e`.
    pub fn subgroup_size(mut self, size: u32) -> Case {
        self.subgroup_size = Some(size);
        self
    }

    pub fn expect(mut self, e: Expect) -> Case {
        self.expect.push((self.buffers.len() - 1, e));
        self
    }

    pub fn push(mut self, bytes: Vec<u8>) -> Case {
        self.push_constants = bytes;
        self
    }

    pub fn spec(mut self, id: u32, v: u64) -> Case {
        self.spec_constants.insert(id, v);
        self
    }

    pub fn layout(&self) -> DescriptorLayout {
        let mut counts: HashMap<(u32, u32), (DescriptorKind, u32)> = HashMap::new();
        for b in &self.buffers {
            let e = counts.entry((b.set, b.binding)).or_insert((b.kind, 0));
            e.1 = e.1.max(b.element + 1);
        }
        let list: Vec<_> = counts
            .into_iter()
            .map(|((s, b), (k, n))| (s, b, k, n))
            .collect();
        DescriptorLayout::packed(&list)
    }

    /// Compares result buffers (in the order of `buffers`) with the expectations.
    pub fn check(&self, results: &[Vec<u8>]) -> Result<(), String> {
        for (i, e) in &self.expect {
            let got = &results[*i];
            match e {
                Expect::U32(want) => {
                    let got = words(got);
                    for (k, (g, w)) in got.iter().zip(want).enumerate() {
                        if g != w {
                            return Err(format!(
                                "buffer {i} word {k}: got {g:#x} ({}), want {w:#x} ({})",
                                *g as i32, *w as i32
                            ));
                        }
                    }
                    if got.len() < want.len() {
                        return Err(format!("buffer {i} too short"));
                    }
                }
                Expect::F32 { values, tolerance } => {
                    let got = words(got);
                    for (k, (g, w)) in got.iter().zip(values).enumerate() {
                        let g = f32::from_bits(*g);
                        let err = (g - w).abs() / w.abs().max(1.0);
                        if !(err <= *tolerance || (g.is_nan() && w.is_nan())) {
                            return Err(format!("buffer {i} float {k}: got {g}, want {w}"));
                        }
                    }
                }
                Expect::Bytes(want) => {
                    if got != want {
                        let k = got.iter().zip(want).position(|(a, b)| a != b).unwrap_or(0);
                        return Err(format!(
                            "buffer {i} byte {k}: got {:#x}, want {:#x}",
                            got[k], want[k]
                        ));
                    }
                }
            }
        }
        Ok(())
    }
}

pub fn words(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

pub fn bytes<T: Copy + Into<u32>>(v: &[T]) -> Vec<u8> {
    v.iter().flat_map(|x| (*x).into().to_le_bytes()).collect()
}

pub fn ibytes(v: &[i32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

pub fn fbytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// Deterministic pseudo-random words (a 64-bit LCG, Knuth's MMIX constants).
pub fn random(seed: u64, n: usize) -> Vec<u32> {
    let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (s >> 32) as u32
        })
        .collect()
}

/// Pseudo-random floats in [lo, hi).
pub fn random_f32(seed: u64, n: usize, lo: f32, hi: f32) -> Vec<f32> {
    random(seed, n)
        .iter()
        .map(|r| lo + (hi - lo) * (*r as f32 / 4_294_967_296.0))
        .collect()
}
