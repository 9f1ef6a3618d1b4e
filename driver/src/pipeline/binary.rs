//! A compiled compute shader as the driver keeps it: the ir3 machine code,
//! what the hardware must be told to run it (register footprint, const
//! length, shared and private memory, wave size, where the built-ins go and
//! where the driver's constants go), and what
//! VK_KHR_pipeline_executable_properties reports (statistics, disassembly).
//!
//! It is the driver's own form of the compiler's output, so the pipeline
//! cache stores it with a serialisation of its own (`to_bytes`/`from_bytes`)
//! that never depends on the compiler's types.

/// A register the hardware writes a built-in to, as SP_CS_CNTL_0 encodes
/// it: `(n << 2) | component`; r63.x (`0xfc`) means "none".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RegId(pub u8);

impl RegId {
    pub const NONE: RegId = RegId(0xfc);
}

/// A statistic of VK_KHR_pipeline_executable_properties.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statistic {
    pub name: String,
    pub description: String,
    pub value: u64,
}

/// A value the driver puts in the const file for each dispatch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DriverParam {
    /// The dispatch's work group count, component 0-2.
    NumWorkgroups(u8),
    /// `vkCmdDispatchBase`'s base work group, component 0-2.
    BaseWorkgroup(u8),
    /// A draw's vertex offset or first vertex.
    BaseVertex,
    /// A draw's first instance.
    BaseInstance,
    /// The view of the multiview subpass a draw renders (gl_ViewIndex).
    ViewIndex,
}

impl DriverParam {
    fn to_code(self) -> u32 {
        match self {
            DriverParam::NumWorkgroups(c) => u32::from(c),
            DriverParam::BaseWorkgroup(c) => 0x100 | u32::from(c),
            DriverParam::BaseVertex => 0x200,
            DriverParam::BaseInstance => 0x201,
            DriverParam::ViewIndex => 0x202,
        }
    }

    fn from_code(code: u32) -> Option<DriverParam> {
        match code {
            0x200 => return Some(DriverParam::BaseVertex),
            0x201 => return Some(DriverParam::BaseInstance),
            0x202 => return Some(DriverParam::ViewIndex),
            _ => {}
        }
        let c = u8::try_from(code & 0xff).ok().filter(|c| *c < 3)?;
        match code >> 8 {
            0 => Some(DriverParam::NumWorkgroups(c)),
            1 => Some(DriverParam::BaseWorkgroup(c)),
            _ => None,
        }
    }
}

/// Where the driver's values go in the const file, in dwords.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConstLayout {
    /// Push constants: first dword and number of dwords.
    pub push_constants: Option<(u32, u32)>,
    /// Each driver parameter and its dword.
    pub driver_params: Vec<(DriverParam, u32)>,
    /// Dwords the shader reads from the const file, a whole number of vec4s.
    pub dwords: u32,
}

impl ConstLayout {
    /// Whether the stage reads the draw's bases (gl_BaseVertex,
    /// gl_BaseInstance, or gl_InstanceIndex's offset), which change from
    /// draw to draw.
    pub fn reads_draw_bases(&self) -> bool {
        self.driver_params
            .iter()
            .any(|(p, _)| matches!(p, DriverParam::BaseVertex | DriverParam::BaseInstance))
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShaderBinary {
    /// The machine code, two dwords per instruction.
    pub code: Vec<u32>,
    /// SP_CS_CTRL_REG0's FULLREGFOOTPRINT and HALFREGFOOTPRINT (vec4s).
    pub full_regs: u32,
    pub half_regs: u32,
    /// SP_CS_CTRL_REG0.BRANCHSTACK.
    pub branch_stack: u32,
    /// HLSQ_CS_CNTL.CONSTLEN, in vec4s.
    pub const_len: u32,
    /// Shared memory per workgroup, bytes.
    pub shared_bytes: u32,
    /// Private (spill) memory per thread, bytes.
    pub private_bytes: u32,
    /// 64 or 128 threads per wave.
    pub wave_size: u32,
    /// SP_CS_CONFIG.BINDLESS_TEX: the shader reads textures (uniform texel buffers,
    /// sampled images).
    pub bindless_tex: bool,
    /// SP_CS_CONFIG.BINDLESS_SAMP: the shader samples through samplers.
    pub bindless_samp: bool,
    pub local_size: [u32; 3],
    pub work_group_id: RegId,
    pub local_id: RegId,
    pub consts: ConstLayout,
    pub statistics: Vec<Statistic>,
    pub disassembly: String,
}

impl ShaderBinary {
    /// Instructions (64-bit words) of code.
    pub fn instructions(&self) -> u32 {
        (self.code.len() / 2) as u32
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::default();
        w.u32s(&self.code);
        for v in [
            self.full_regs,
            self.half_regs,
            self.branch_stack,
            self.const_len,
            self.shared_bytes,
            self.private_bytes,
            self.wave_size,
            u32::from(self.bindless_tex) | u32::from(self.bindless_samp) << 1,
        ] {
            w.u32(v);
        }
        for v in self.local_size {
            w.u32(v);
        }
        w.u32(u32::from(self.work_group_id.0));
        w.u32(u32::from(self.local_id.0));
        match self.consts.push_constants {
            Some((a, b)) => {
                w.u32(1);
                w.u32(a);
                w.u32(b);
            }
            None => w.u32(0),
        }
        w.u32(self.consts.driver_params.len() as u32);
        for (param, dword) in &self.consts.driver_params {
            w.u32(param.to_code());
            w.u32(*dword);
        }
        w.u32(self.consts.dwords);
        w.u32(self.statistics.len() as u32);
        for s in &self.statistics {
            w.string(&s.name);
            w.string(&s.description);
            w.u64(s.value);
        }
        w.string(&self.disassembly);
        w.0
    }

    /// Reads what `to_bytes` wrote; `None` for anything else (a truncated or
    /// foreign cache entry is skipped, never trusted).
    pub fn from_bytes(bytes: &[u8]) -> Option<ShaderBinary> {
        let mut r = Reader { bytes, at: 0 };
        let code = r.u32s()?;
        let mut fixed = [0u32; 8];
        for v in &mut fixed {
            *v = r.u32()?;
        }
        let local_size = [r.u32()?, r.u32()?, r.u32()?];
        let work_group_id = RegId(u8::try_from(r.u32()?).ok()?);
        let local_id = RegId(u8::try_from(r.u32()?).ok()?);
        let push_constants = match r.u32()? {
            0 => None,
            1 => Some((r.u32()?, r.u32()?)),
            _ => return None,
        };
        let params = r.u32()? as usize;
        let mut driver_params = Vec::with_capacity(params.min(16));
        for _ in 0..params {
            driver_params.push((DriverParam::from_code(r.u32()?)?, r.u32()?));
        }
        let const_dwords = r.u32()?;
        let n = r.u32()? as usize;
        let mut statistics = Vec::with_capacity(n.min(64));
        for _ in 0..n {
            statistics.push(Statistic {
                name: r.string()?,
                description: r.string()?,
                value: r.u64()?,
            });
        }
        let disassembly = r.string()?;
        if r.at != bytes.len() {
            return None;
        }
        let [full_regs, half_regs, branch_stack, const_len, shared_bytes, private_bytes, wave_size, bindless] =
            fixed;
        if bindless > 3 {
            return None;
        }
        let (bindless_tex, bindless_samp) = (bindless & 1 != 0, bindless & 2 != 0);
        // More private memory than an invocation can have is no binary the compiler made.
        if private_bytes > parsnip_compiler::target::max_private_bytes() {
            return None;
        }
        Some(ShaderBinary {
            code,
            full_regs,
            half_regs,
            branch_stack,
            const_len,
            shared_bytes,
            private_bytes,
            wave_size,
            bindless_tex,
            bindless_samp,
            local_size,
            work_group_id,
            local_id,
            consts: ConstLayout {
                push_constants,
                driver_params,
                dwords: const_dwords,
            },
            statistics,
            disassembly,
        })
    }
}

/// Little-endian fields, lengths before sequences.
#[derive(Default)]
struct Writer(Vec<u8>);

impl Writer {
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u32s(&mut self, v: &[u32]) {
        self.u32(v.len() as u32);
        for x in v {
            self.u32(*x);
        }
    }
    fn string(&mut self, s: &str) {
        self.u32(s.len() as u32);
        self.0.extend_from_slice(s.as_bytes());
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Option<&[u8]> {
        let end = self.at.checked_add(n)?;
        let s = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(s)
    }
    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }
    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
    fn u32s(&mut self) -> Option<Vec<u32>> {
        let n = self.u32()? as usize;
        let bytes = self.take(n.checked_mul(4)?)?;
        Some(
            bytes
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect(),
        )
    }
    fn string(&mut self) -> Option<String> {
        let n = self.u32()? as usize;
        String::from_utf8(self.take(n)?.to_vec()).ok()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn sample() -> ShaderBinary {
        ShaderBinary {
            code: vec![0x100400c0, 0x421000c0, 0, 0x0300_0000],
            full_regs: 1,
            half_regs: 0,
            branch_stack: 0,
            const_len: 4,
            shared_bytes: 0,
            private_bytes: 0,
            wave_size: 64,
            bindless_tex: false,
            bindless_samp: false,
            local_size: [64, 1, 1],
            work_group_id: RegId(0xc0),
            local_id: RegId(0),
            consts: ConstLayout {
                push_constants: Some((8, 4)),
                driver_params: vec![
                    (DriverParam::NumWorkgroups(0), 0),
                    (DriverParam::BaseWorkgroup(2), 6),
                ],
                dwords: 16,
            },
            statistics: vec![Statistic {
                name: "Instruction Count".into(),
                description: "instructions".into(),
                value: 2,
            }],
            disassembly: "add.u r48.x, r48.x, c1.x\nend\n".into(),
        }
    }

    #[test]
    fn a_binary_round_trips_and_damaged_bytes_are_refused() {
        let b = sample();
        let bytes = b.to_bytes();
        assert_eq!(ShaderBinary::from_bytes(&bytes), Some(b));
        let textures = ShaderBinary {
            bindless_tex: true,
            ..sample()
        };
        assert_eq!(
            ShaderBinary::from_bytes(&textures.to_bytes()),
            Some(textures)
        );
        let samplers = ShaderBinary {
            bindless_tex: true,
            bindless_samp: true,
            ..sample()
        };
        assert_eq!(
            ShaderBinary::from_bytes(&samplers.to_bytes()),
            Some(samplers)
        );
        assert_eq!(ShaderBinary::from_bytes(&bytes[..bytes.len() - 1]), None);
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(ShaderBinary::from_bytes(&longer), None);
        let mut huge = bytes;
        huge[0..4].copy_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(ShaderBinary::from_bytes(&huge), None);
        // More private memory than MEMSIZEPERITEM holds (255 * 512 bytes) is no
        // binary the compiler made.
        let most = ShaderBinary {
            private_bytes: 130_560,
            ..sample()
        };
        assert_eq!(ShaderBinary::from_bytes(&most.to_bytes()), Some(most));
        let more = ShaderBinary {
            private_bytes: 130_561,
            ..sample()
        };
        assert_eq!(ShaderBinary::from_bytes(&more.to_bytes()), None);
    }
}
