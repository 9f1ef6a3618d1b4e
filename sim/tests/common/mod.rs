//! Building command streams by packet and register name, and a GPU with a
//! command buffer and a data buffer mapped, for the command processor's
//! tests.

#![allow(dead_code)]

pub mod blit_state;
pub mod compute_state;
pub mod draw_rig;
pub mod graphics_state;
pub mod resolve_state;
pub mod scene;
pub mod textured_quad;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use parsnip_registers::gpu;
use parsnip_registers::packets::CpIndirectBufferDw2;
use parsnip_registers::pm4::{self, pkt4, pkt7};
use parsnip_registers::regs::{ArrayRegister, Register};
use parsnip_registers::Chip;
use parsnip_sim::compute_dispatch::ComputeDispatch;
use parsnip_sim::memory::{AddressSpace, OwnedBacking};
use parsnip_sim::report::ShaderFailure;
use parsnip_sim::shader_core::ShaderCore;
use parsnip_sim::sp::SpStats;
use parsnip_sim::{Context, Gpu, GpuError, IbRange, SimOptions, SubmitStats};

/// Where the rig maps its command buffer, and its size.
pub const CMD: u64 = 0x1_0000_0000;
pub const CMD_SIZE: usize = 0x10000;
/// Where the rig maps its data buffer, and its size.
pub const DATA: u64 = 0x1_0010_0000;
pub const DATA_SIZE: usize = 0x10000;
/// An address nothing is mapped at.
pub const UNMAPPED: u64 = 0x2_0000_0000;

/// The GPUs every packet test runs on: one a6xx and one a7xx.
pub const GPUS: [&str; 2] = ["a660", "a740"];

/// A command stream under construction.
#[derive(Clone)]
pub struct Stream {
    pub chip: Chip,
    pub dwords: Vec<u32>,
}

impl Stream {
    pub fn new(chip: Chip) -> Self {
        Self {
            chip,
            dwords: Vec::new(),
        }
    }

    /// A type 7 packet by its name on this chip.
    pub fn pkt(&mut self, name: &str, payload: &[u32]) -> &mut Self {
        let op = pm4::opcode_by_name(self.chip, name)
            .unwrap_or_else(|| panic!("{name} is not an opcode on {}", self.chip));
        self.dwords.push(pkt7(op, payload.len() as u32));
        self.dwords.extend_from_slice(payload);
        self
    }

    /// A type 4 write of a typed register.
    pub fn reg<R: Register>(&mut self, r: &R) -> &mut Self {
        let w = r.write(self.chip).expect("register value fits");
        let dwords: Vec<u32> = w.dwords().collect();
        self.dwords.push(pkt4(w.offset, dwords.len() as u32));
        self.dwords.extend(dwords);
        self
    }

    /// A type 4 write of `values` to array `name` from its first entry, for
    /// arrays of plain dwords the database has no register type for
    /// (`HLSQ_SHARED_CONSTS_IMM`).
    pub fn dword_array(&mut self, name: &str, values: &[u32]) -> &mut Self {
        let offsets = parsnip_registers::lookup::chip_table(self.chip).array_offsets(name);
        assert!(offsets.len() >= values.len(), "{name} on {}", self.chip);
        self.dwords.push(pkt4(offsets[0], values.len() as u32));
        self.dwords.extend_from_slice(values);
        self
    }

    /// A type 4 write of entry `index` of a typed array register.
    pub fn reg_at<R: ArrayRegister>(&mut self, r: &R, index: u32) -> &mut Self {
        let w = r.write(self.chip, index).expect("register value fits");
        let dwords: Vec<u32> = w.dwords().collect();
        self.dwords.push(pkt4(w.offset, dwords.len() as u32));
        self.dwords.extend(dwords);
        self
    }

    /// CP_MEM_WRITE of one dword.
    pub fn mem_write(&mut self, iova: u64, value: u32) -> &mut Self {
        let [lo, hi] = lo_hi(iova);
        self.pkt("CP_MEM_WRITE", &[lo, hi, value])
    }

    /// CP_INDIRECT_BUFFER calling `ib`.
    pub fn call(&mut self, ib: IbRange) -> &mut Self {
        let [lo, hi] = lo_hi(ib.iova);
        let size = CpIndirectBufferDw2 { size: ib.dwords }.to_raw();
        self.pkt("CP_INDIRECT_BUFFER", &[lo, hi, size])
    }

    /// The stream without its type 4 writes of the register at `offset`
    /// (each write of one register is its own packet here): for state
    /// left unprogrammed.
    pub fn without_writes(&self, offset: u32) -> Stream {
        let mut out = Stream::new(self.chip);
        let mut at = 0;
        while at < self.dwords.len() {
            let header = pm4::Pm4Header::parse(self.dwords[at]).expect("a packet header");
            let end = at + 1 + header.payload_dwords() as usize;
            if !matches!(header, pm4::Pm4Header::Type4 { offset: o, .. } if o == offset) {
                out.dwords.extend_from_slice(&self.dwords[at..end]);
            }
            at = end;
        }
        out
    }

    /// Length in dwords.
    pub fn len(&self) -> u32 {
        self.dwords.len() as u32
    }

    pub fn is_empty(&self) -> bool {
        self.dwords.is_empty()
    }
}

/// The shared state emission writes into a test's stream as into the
/// driver's.
impl parsnip_hw_state::PacketSink for Stream {
    type Error = parsnip_registers::RegisterError;

    fn chip(&self) -> Chip {
        self.chip
    }

    fn push(&mut self, dword: u32) {
        self.dwords.push(dword);
    }

    fn push_all(&mut self, dwords: &[u32]) {
        self.dwords.extend_from_slice(dwords);
    }

    fn encoding_error(error: parsnip_registers::RegisterError) -> Self::Error {
        error
    }
}

/// The low and high dwords of an address.
pub fn lo_hi(iova: u64) -> [u32; 2] {
    [iova as u32, (iova >> 32) as u32]
}

/// The dispatches a [`Recorder`] was handed.
#[derive(Default)]
pub struct Recorder {
    pub dispatches: Mutex<Vec<ComputeDispatch>>,
}

/// A shader core that records each dispatch and runs nothing: for testing
/// what the command processor gathers.
pub struct RecordingCore(pub Arc<Recorder>);

impl ShaderCore for RecordingCore {
    fn run_compute(
        &self,
        dispatch: &ComputeDispatch,
        _index: u32,
        _memory: &AddressSpace,
    ) -> Result<SpStats, ShaderFailure> {
        self.0.dispatches.lock().unwrap().push(dispatch.clone());
        Ok(SpStats::default())
    }
}

/// A GPU with a command buffer at [`CMD`] and a data buffer at [`DATA`].
pub struct Rig {
    pub gpu: Gpu,
    pub ctx: Context,
    pub recorder: Arc<Recorder>,
    /// Where the next stream is placed in the command buffer.
    next: u64,
}

/// Options with small budgets, so hang tests end fast, and strict caches.
pub fn test_options() -> SimOptions {
    SimOptions {
        strict: true,
        strict_caches: true,
        wait_budget: Duration::from_millis(50),
        shader_budget: 100_000,
        shader_timeout: Duration::from_secs(10),
    }
}

impl Rig {
    pub fn new(name: &str) -> Self {
        Self::with_options(name, test_options())
    }

    /// A rig whose dispatches are recorded, not run.
    pub fn with_options(name: &str, options: SimOptions) -> Self {
        let info = gpu::by_name(name).unwrap();
        let recorder = Arc::new(Recorder::default());
        let gpu = Gpu::with_shader_core(
            info,
            options,
            Arc::new(AddressSpace::new()),
            Box::new(RecordingCore(recorder.clone())),
        );
        Self::on(gpu, recorder)
    }

    /// A rig on the whole model, its shader processor included.
    pub fn with_model(name: &str, options: SimOptions) -> Self {
        let gpu = Gpu::new(gpu::by_name(name).unwrap(), options);
        Self::on(gpu, Arc::new(Recorder::default()))
    }

    fn on(gpu: Gpu, recorder: Arc<Recorder>) -> Self {
        gpu.memory()
            .map(CMD, Arc::new(OwnedBacking::zeroed(CMD_SIZE).unwrap()))
            .unwrap();
        gpu.memory()
            .map(DATA, Arc::new(OwnedBacking::zeroed(DATA_SIZE).unwrap()))
            .unwrap();
        let ctx = gpu.new_context();
        Self {
            gpu,
            ctx,
            recorder,
            next: CMD,
        }
    }

    pub fn chip(&self) -> Chip {
        self.gpu.info().chip
    }

    pub fn stream(&self) -> Stream {
        Stream::new(self.chip())
    }

    /// Copies `s` into the command buffer; returns its iova and length.
    pub fn place(&mut self, s: &Stream) -> IbRange {
        let iova = self.next;
        let bytes: Vec<u8> = s.dwords.iter().flat_map(|d| d.to_le_bytes()).collect();
        self.gpu.memory().write(iova, &bytes).unwrap();
        self.next += (bytes.len() as u64 + 63) & !63;
        IbRange {
            iova,
            dwords: s.len(),
        }
    }

    /// Places `s` and submits it as the only IB1.
    pub fn run(&mut self, s: &Stream) -> Result<SubmitStats, GpuError> {
        let ib = self.place(s);
        self.gpu.submit(&mut self.ctx, &[ib])
    }

    /// Runs `s`, which must fail with an error whose text contains `text`;
    /// returns the error.
    pub fn run_expecting(&mut self, s: &Stream, text: &str) -> GpuError {
        let err = self.run(s).expect_err("the stream should fail");
        assert!(err.to_string().contains(text), "{err}");
        err
    }

    pub fn read_u32(&self, iova: u64) -> u32 {
        self.gpu.memory().read_u32(iova).unwrap()
    }

    pub fn read_u64(&self, iova: u64) -> u64 {
        self.gpu.memory().read_u64(iova).unwrap()
    }

    pub fn write_u32(&self, iova: u64, v: u32) {
        self.gpu.memory().write_u32(iova, v).unwrap()
    }

    pub fn dispatches(&self) -> Vec<ComputeDispatch> {
        self.recorder.dispatches.lock().unwrap().clone()
    }
}
