//! The texel buffer format features the physical device advertises are the
//! ones that work, on the simulated a660 and a740.
//!
//! Every Vulkan format either is in the driver's buffer format table, with
//! its features, or has none. For every format with UNIFORM_TEXEL_BUFFER, a
//! shader fetches each texel of a view through the texture unit
//! (`texelFetch`); for every one with STORAGE_TEXEL_BUFFER, a shader loads
//! each texel of a view with no format in the shader and stores it to a
//! second view (`imageLoad`/`imageStore`, which the advertised
//! shaderStorageImage{Read,Write}WithoutFormat allow); for the two with
//! STORAGE_TEXEL_BUFFER_ATOMIC, invocations add to or take the minimum of
//! shared texels. What the shaders read is compared with the texels decoded
//! here from the format's Vulkan name and Vulkan's conversion rules, and the
//! stored texels with the source bytes (every texel generated is one the
//! format represents exactly, so a store gives back its bytes).

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use ash::vk;
use common::{simulated_device, submit_and_wait};
use parsnip_driver::buffer::{Buffer, BufferView};
use parsnip_driver::descriptor::pool::DescriptorPool;
use parsnip_driver::descriptor::set::{DescriptorSet, DescriptorWrite};
use parsnip_driver::descriptor::set_layout::{BindingDesc, DescriptorSetLayout};
use parsnip_driver::device::Device;
use parsnip_driver::device_memory::DeviceMemory;
use parsnip_driver::formats::{TexelBuffer, FORMATS};
use parsnip_driver::pipeline::compute::{ComputePipeline, ComputePipelineDesc};
use parsnip_driver::pipeline_layout::PipelineLayout;
use parsnip_driver::shader_module::ShaderModule;

/// Texels per view: one invocation each.
const TEXELS: usize = 64;

/// What a format's components hold, from its Vulkan name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Numeric {
    Unorm,
    Snorm,
    Uint,
    Sint,
    Sfloat,
    Ufloat,
}

/// A format as its Vulkan name spells it: components (RGBA index, bits)
/// from the texel's lowest bits up.
#[derive(Debug)]
struct Layout {
    components: Vec<(usize, u32)>,
    numeric: Numeric,
}

impl Layout {
    /// `R8G8B8A8_UNORM`, `A2B10G10R10_UINT_PACK32`, ...: unpacked formats
    /// list components in memory order, packed ones from the most
    /// significant bits down (the specification's "Packed Formats").
    fn of(format: vk::Format) -> Layout {
        let name = format!("{format:?}");
        let (spec, rest) = name.split_once('_').expect("a format name");
        let mut components = Vec::new();
        let mut chars = spec.chars().peekable();
        while let Some(c) = chars.next() {
            let mut bits = String::new();
            while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                bits.push(*d);
                chars.next();
            }
            let channel = "RGBA".find(c).unwrap_or_else(|| panic!("{name}"));
            components.push((channel, bits.parse().unwrap()));
        }
        if rest.contains("PACK") {
            components.reverse();
        }
        let numeric = match rest.split('_').next().unwrap() {
            "UNORM" => Numeric::Unorm,
            "SNORM" => Numeric::Snorm,
            "UINT" => Numeric::Uint,
            "SINT" => Numeric::Sint,
            "SFLOAT" => Numeric::Sfloat,
            "UFLOAT" => Numeric::Ufloat,
            other => panic!("{name}: numeric format {other}"),
        };
        Layout {
            components,
            numeric,
        }
    }

    fn bytes(&self) -> usize {
        self.components.iter().map(|c| c.1).sum::<u32>() as usize / 8
    }

    fn is_integer(&self) -> bool {
        matches!(self.numeric, Numeric::Uint | Numeric::Sint)
    }

    /// The shader's sampled type prefix: "", "i" or "u".
    fn prefix(&self) -> &'static str {
        match self.numeric {
            Numeric::Uint => "u",
            Numeric::Sint => "i",
            _ => "",
        }
    }

    /// Turns random bits into a texel the format holds exactly and reads
    /// back the same: no NaN or infinity, no most negative SNORM value
    /// (which reads as -1 like the one above it).
    fn tame(&self, texel: u128) -> u128 {
        let mut t = texel;
        let mut at = 0;
        for &(_, bits) in &self.components {
            let field = (t >> at) as u64 & mask(bits);
            let fixed = match (self.numeric, bits) {
                (Numeric::Sfloat | Numeric::Ufloat, _) => {
                    // The exponent sits below the sign (if any) at the top.
                    let exp_bits = if bits == 32 { 8 } else { 5 };
                    let mantissa = if self.numeric == Numeric::Ufloat {
                        bits - 5
                    } else {
                        bits - 1 - exp_bits
                    };
                    let top = mask(exp_bits) << mantissa;
                    if field & top == top {
                        field & !(1 << (mantissa + exp_bits - 1))
                    } else {
                        field
                    }
                }
                (Numeric::Snorm, _) if field == 1 << (bits - 1) => 0,
                _ => field,
            };
            t = t & !(u128::from(mask(bits)) << at) | u128::from(fixed) << at;
            at += bits;
        }
        t
    }

    /// The four components of a texel as a shader of the format's sampled
    /// type reads them, as bits: f32 for float and normalised formats.
    fn decode(&self, texel: u128) -> [u32; 4] {
        let one = if self.is_integer() {
            1
        } else {
            1.0f32.to_bits()
        };
        let mut out = [0, 0, 0, one];
        let mut at = 0;
        for &(channel, bits) in &self.components {
            let x = (texel >> at) as u64 & mask(bits);
            at += bits;
            let signed = ((x << (64 - bits)) as i64) >> (64 - bits);
            let float = |v: f64| (v as f32).to_bits();
            out[channel] = match self.numeric {
                Numeric::Uint => x as u32,
                Numeric::Sint => signed as u32,
                Numeric::Unorm => float(x as f64 / mask(bits) as f64),
                Numeric::Snorm => float((signed as f64 / mask(bits - 1) as f64).max(-1.0)),
                Numeric::Sfloat if bits == 32 => x as u32,
                Numeric::Sfloat => float(small_float(x, 5, 10, true)),
                Numeric::Ufloat => float(small_float(x, 5, bits - 5, false)),
            };
        }
        out
    }
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1 << bits) - 1
    }
}

/// A finite IEEE-style float of `exp` exponent bits (bias 2^(exp-1) - 1)
/// and `mantissa` bits, with a sign bit on top if `signed`.
fn small_float(x: u64, exp: u32, mantissa: u32, signed: bool) -> f64 {
    let sign = if signed && x >> (exp + mantissa) & 1 != 0 {
        -1.0
    } else {
        1.0
    };
    let e = (x >> mantissa & mask(exp)) as i32;
    let m = (x & mask(mantissa)) as f64 / (1u64 << mantissa) as f64;
    let bias = (1 << (exp - 1)) - 1;
    sign * if e == 0 {
        m * 2f64.powi(1 - bias)
    } else {
        (1.0 + m) * 2f64.powi(e - bias)
    }
}

/// Deterministic pseudo-random 64-bit values (Knuth's MMIX LCG).
fn random(seed: u64, n: usize) -> Vec<u64> {
    let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            s
        })
        .collect()
}

/// GLSL compiled now, from a file of its own: the tests run in parallel.
fn spirv(name: &str, source: &str) -> Vec<u8> {
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, Ordering::Relaxed);
    let src = std::env::temp_dir().join(format!(
        "parsnip-texel-{}-{call}-{name}.comp",
        std::process::id()
    ));
    std::fs::write(&src, source).unwrap();
    let spirv = common::glslang(&src);
    let _ = std::fs::remove_file(&src);
    spirv
}

/// GLSL turning a texel `v` of the sampled type `prefix` names into its bits.
fn bits_of_v(prefix: &str) -> &'static str {
    if prefix.is_empty() {
        "floatBitsToUint(v)"
    } else {
        "uvec4(v)"
    }
}

/// Fetches texel i of binding 0 into out[i] as bits.
fn fetch_shader(prefix: &str) -> String {
    let value = bits_of_v(prefix);
    format!(
        "#version 450
        layout(local_size_x = {TEXELS}) in;
        layout(set = 0, binding = 0) uniform {prefix}samplerBuffer src;
        layout(std430, set = 0, binding = 2) writeonly buffer Out {{ uvec4 o[]; }};
        void main() {{
            int i = int(gl_LocalInvocationID.x);
            {prefix}vec4 v = texelFetch(src, i);
            o[i] = {value};
        }}"
    )
}

/// Loads texel i of binding 0 into out[i] and stores it to binding 1.
fn copy_shader(prefix: &str) -> String {
    let value = bits_of_v(prefix);
    format!(
        "#version 450
        #extension GL_EXT_shader_image_load_formatted : require
        layout(local_size_x = {TEXELS}) in;
        layout(set = 0, binding = 0) uniform readonly {prefix}imageBuffer src;
        layout(set = 0, binding = 1) uniform writeonly {prefix}imageBuffer dst;
        layout(std430, set = 0, binding = 2) writeonly buffer Out {{ uvec4 o[]; }};
        void main() {{
            int i = int(gl_LocalInvocationID.x);
            {prefix}vec4 v = imageLoad(src, i);
            imageStore(dst, i, v);
            o[i] = {value};
        }}"
    )
}

/// Invocation i adds i + 1 to texel i % 4 (uint) or takes the minimum of it
/// and i - 40 (int), and writes the old value of texel 4 + i, which it
/// exchanges for i.
fn atomic_shader(prefix: &str) -> String {
    let (format, op, operand, cast) = if prefix == "u" {
        ("r32ui", "imageAtomicAdd", "uint(i) + 1u", "uint(i)")
    } else {
        ("r32i", "imageAtomicMin", "i - 40", "i")
    };
    format!(
        "#version 450
        layout(local_size_x = {TEXELS}) in;
        layout(set = 0, binding = 0, {format}) uniform {prefix}imageBuffer counters;
        layout(std430, set = 0, binding = 2) writeonly buffer Out {{ uvec4 o[]; }};
        void main() {{
            int i = int(gl_LocalInvocationID.x);
            {op}(counters, i % 4, {operand});
            o[i] = uvec4(imageAtomicExchange(counters, 4 + i, {cast}));
        }}"
    )
}

/// A buffer of `bytes` in its own host-visible memory.
fn buffer(device: &Arc<Device>, bytes: &[u8]) -> (Arc<DeviceMemory>, Arc<Buffer>) {
    let usage = vk::BufferUsageFlags::UNIFORM_TEXEL_BUFFER
        | vk::BufferUsageFlags::STORAGE_TEXEL_BUFFER
        | vk::BufferUsageFlags::STORAGE_BUFFER;
    let buffer = Buffer::new(bytes.len() as u64, usage).unwrap();
    let size = buffer.memory_requirements(device).size;
    let memory = DeviceMemory::allocate(device, size, 0).unwrap();
    memory.bo.write(0, bytes).unwrap();
    buffer.bind(memory.clone(), 0).unwrap();
    (memory, buffer)
}

fn read(memory: &DeviceMemory, len: usize) -> Vec<u8> {
    let mut out = vec![0u8; len];
    memory.bo.read(0, &mut out).unwrap();
    out
}

/// Runs `spirv` once over `TEXELS` invocations with `views` at bindings 0
/// and 1 (of `ty`) and the output buffer at binding 2.
fn dispatch(
    device: &Arc<Device>,
    spirv: &[u8],
    ty: vk::DescriptorType,
    views: &[Arc<BufferView>],
    out: &Arc<Buffer>,
) -> Result<(), String> {
    let mut bindings: Vec<BindingDesc> = (0..views.len() as u32)
        .map(|binding| BindingDesc {
            binding,
            ty,
            count: 1,
            stages: vk::ShaderStageFlags::COMPUTE,
        })
        .collect();
    bindings.push(BindingDesc {
        binding: 2,
        ty: vk::DescriptorType::STORAGE_BUFFER,
        count: 1,
        stages: vk::ShaderStageFlags::COMPUTE,
    });
    let set_layout = DescriptorSetLayout::new(&bindings).unwrap();
    let layout = PipelineLayout::new(vec![Some(set_layout.clone())], Vec::new()).unwrap();
    let pool = DescriptorPool::new(
        device,
        1,
        &[(ty, 2), (vk::DescriptorType::STORAGE_BUFFER, 1)],
    )
    .unwrap();
    let set = DescriptorSet::allocate(&pool, &set_layout).unwrap();
    for (binding, view) in views.iter().enumerate() {
        set.write(binding as u32, 0, ty, &[DescriptorWrite::TexelBuffer(view)])
            .unwrap();
    }
    set.write(
        2,
        0,
        vk::DescriptorType::STORAGE_BUFFER,
        &[DescriptorWrite::Buffer {
            buffer: out,
            offset: 0,
            range: vk::WHOLE_SIZE,
        }],
    )
    .unwrap();
    let module = ShaderModule::new(spirv).unwrap();
    let pipeline = ComputePipeline::new(
        device,
        &ComputePipelineDesc {
            module: &module,
            entry_point: "main",
            specialization: Vec::new(),
            layout: layout.clone(),
            required_subgroup_size: None,
        },
        None,
    )
    .map_err(|e| format!("the pipeline: {e:?}"))?;
    submit_and_wait(device, |cmd| {
        cmd.record(|r| r.bind_compute_pipeline(pipeline.clone()));
        cmd.record(|r| {
            r.bind_descriptor_sets(
                vk::PipelineBindPoint::COMPUTE,
                &layout,
                0,
                std::slice::from_ref(&set),
                &[],
            )
        });
        cmd.record(|r| r.dispatch([0; 3], [1, 1, 1]));
    })
    .map_err(|e| format!("the dispatch: {e:?}"))
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// Every format's advertised texel buffer features, checked by use; the
/// counts of uses checked.
fn advertised_formats_work(gpu: &'static str) {
    let device = simulated_device(gpu);
    let physical = device.physical.clone();
    let (mut fetched, mut copied, mut atomics) = (0, 0, 0);
    let mut failures = Vec::new();
    // Every core format (VK_FORMAT_UNDEFINED + 1 to ASTC_12x12_SRGB_BLOCK).
    for raw in 1..=184 {
        let format = vk::Format::from_raw(raw);
        // Vertex fetch is the draws' (formats::vertex_fetch), not a texel
        // buffer's.
        let mut features = physical.format_properties(format).buffer_features;
        features &= !vk::FormatFeatureFlags::VERTEX_BUFFER;
        let entry = FORMATS
            .iter()
            .find(|f| f.vk == format && f.texel_buffer != TexelBuffer::None);
        let Some(entry) = entry else {
            assert!(features.is_empty(), "{gpu}: {format:?} has {features:?}");
            continue;
        };
        let want = vk::FormatFeatureFlags::UNIFORM_TEXEL_BUFFER;
        assert!(features.contains(want), "{gpu}: {format:?}");
        assert_eq!(
            features.contains(vk::FormatFeatureFlags::STORAGE_TEXEL_BUFFER),
            entry.storage()
        );
        let layout = Layout::of(format);
        assert_eq!(layout.bytes() as u32, entry.bytes, "{format:?}");
        let texels: Vec<u128> = random(raw as u64, 2 * TEXELS)
            .chunks(2)
            .map(|r| {
                let t = u128::from(r[0]) | u128::from(r[1]) << 64;
                layout.tame(t & (u128::MAX >> (128 - 8 * layout.bytes())))
            })
            .collect();
        let bytes: Vec<u8> = texels
            .iter()
            .flat_map(|t| t.to_le_bytes()[..layout.bytes()].to_vec())
            .collect();
        let expected: Vec<u32> = texels.iter().flat_map(|t| layout.decode(*t)).collect();
        let (_, src) = buffer(&device, &bytes);
        let (dst_memory, dst) = buffer(&device, &vec![0u8; bytes.len()]);
        let (out_memory, out) = buffer(&device, &vec![0u8; 16 * TEXELS]);
        let view = |b: &Arc<Buffer>| {
            BufferView::new(&device, b.clone(), format, 0, vk::WHOLE_SIZE).unwrap()
        };
        let check = |what: &str, got: Vec<u32>| -> Option<String> {
            let k = got.iter().zip(&expected).position(|(a, b)| a != b)?;
            Some(format!(
                "{format:?} {what}: word {k} is {:#x}, the format gives {:#x}",
                got[k], expected[k]
            ))
        };

        let shader = spirv("fetch", &fetch_shader(layout.prefix()));
        let uniform = vk::DescriptorType::UNIFORM_TEXEL_BUFFER;
        match dispatch(&device, &shader, uniform, &[view(&src)], &out) {
            Ok(()) => failures.extend(check("texelFetch", words(&read(&out_memory, 16 * TEXELS)))),
            Err(e) => failures.push(format!("{format:?} texelFetch: {e}")),
        }
        fetched += 1;

        if !entry.storage() {
            continue;
        }
        let shader = spirv("copy", &copy_shader(layout.prefix()));
        let storage = vk::DescriptorType::STORAGE_TEXEL_BUFFER;
        match dispatch(&device, &shader, storage, &[view(&src), view(&dst)], &out) {
            Ok(()) => {
                failures.extend(check("imageLoad", words(&read(&out_memory, 16 * TEXELS))));
                if read(&dst_memory, bytes.len()) != bytes {
                    failures.push(format!("{format:?} imageStore: the stored texels differ"));
                }
            }
            Err(e) => failures.push(format!("{format:?} imageLoad/imageStore: {e}")),
        }
        copied += 1;

        let atomic = features.contains(vk::FormatFeatureFlags::STORAGE_TEXEL_BUFFER_ATOMIC);
        assert_eq!(atomic, entry.atomic(), "{format:?}");
        if !atomic {
            continue;
        }
        let initial: Vec<u32> = (0..4 + TEXELS as u32).map(|k| 1000 + k).collect();
        let (counters_memory, counters) = buffer(
            &device,
            &initial
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .collect::<Vec<u8>>(),
        );
        let shader = spirv("atomic", &atomic_shader(layout.prefix()));
        match dispatch(&device, &shader, storage, &[view(&counters)], &out) {
            Ok(()) => {
                let n = TEXELS as i32;
                let mut want = initial.clone();
                for (k, w) in want.iter_mut().take(4).enumerate() {
                    *w = if layout.numeric == Numeric::Uint {
                        (k as i32..n).step_by(4).fold(*w, |s, i| s + i as u32 + 1)
                    } else {
                        (k as i32..n)
                            .step_by(4)
                            .fold(*w as i32, |s, i| s.min(i - 40)) as u32
                    };
                }
                for i in 0..TEXELS {
                    want[4 + i] = i as u32;
                }
                let got = words(&read(&counters_memory, want.len() * 4));
                let olds: Vec<u32> = words(&read(&out_memory, 16 * TEXELS))
                    .chunks(4)
                    .map(|c| c[0])
                    .collect();
                if got != want || olds != initial[4..] {
                    failures.push(format!(
                        "{format:?} atomics: texels {got:?}, old values {olds:?}"
                    ));
                }
            }
            Err(e) => failures.push(format!("{format:?} atomics: {e}")),
        }
        atomics += 1;
    }
    println!(
        "{gpu}: {fetched} formats fetched, {copied} loaded and stored, {atomics} with atomics"
    );
    assert!(failures.is_empty(), "{gpu}:\n{}", failures.join("\n"));
    assert_eq!(
        fetched,
        FORMATS
            .iter()
            .filter(|f| f.texel_buffer != TexelBuffer::None)
            .count()
    );
}

#[test]
fn advertised_texel_buffer_formats_work_on_a660() {
    advertised_formats_work("a660");
}

#[test]
fn advertised_texel_buffer_formats_work_on_a740() {
    advertised_formats_work("a740");
}
