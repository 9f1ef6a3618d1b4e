//! Turnip's compute streams (reference/turnip/a660 and a740), replayed on
//! the model: the dispatch the command processor gathers agrees with the
//! register values freedreno's decoder printed for the same stream, and
//! strict mode catches a register write removed from it.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex};

use parsnip_registers::enums::A6xxThreadsize;
use parsnip_registers::pm4::{opcode_by_name, pkt7, Pm4Header};
use parsnip_registers::regs::{self, Register};
use parsnip_sim::compute_dispatch::ComputeDispatch;
use parsnip_sim::memory::AddressSpace;
use parsnip_sim::report::{ErrorKind, ShaderFailure};
use parsnip_sim::shader_core::ShaderCore;
use parsnip_sim::sp::SpStats;
use parsnip_sim::{Gpu, SimOptions};
use parsnip_tools::replay::{trace_gpu, Replay, ReplayError};

/// Records each dispatch instead of running it.
struct Recorder(Arc<Mutex<Vec<ComputeDispatch>>>);

impl ShaderCore for Recorder {
    fn run_compute(
        &self,
        d: &ComputeDispatch,
        _index: u32,
        _memory: &AddressSpace,
    ) -> Result<SpStats, ShaderFailure> {
        self.0.lock().unwrap().push(d.clone());
        Ok(SpStats::default())
    }
}

fn recording_replay(trace: &Path) -> (Replay, Arc<Mutex<Vec<ComputeDispatch>>>) {
    let trace = parsnip_rd::Trace::open(trace).unwrap();
    let info = trace_gpu(&trace).unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let gpu = Gpu::with_shader_core(
        info,
        SimOptions::default(),
        Arc::new(AddressSpace::new()),
        Box::new(Recorder(seen.clone())),
    );
    (Replay::on(gpu, trace), seen)
}

/// What freedreno's decoder printed for the dispatch: the register values
/// of its "draw[0] register values" listing, the CP_EXEC_CS group counts and
/// the constants CP_LOAD_STATE6 loaded.
struct DecodedDispatch {
    registers: HashMap<String, u64>,
    groups: [u32; 3],
    consts: Vec<u32>,
}

fn decoded(log: &str) -> DecodedDispatch {
    let mut registers = HashMap::new();
    let mut groups = [0; 3];
    let mut consts = Vec::new();
    let lines: Vec<&str> = log.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        // "!+\t00000104\t\tSP_CS_CONFIG: { ... }"
        if let Some(rest) = line.strip_prefix("!+\t").or(line.strip_prefix(" +\t")) {
            let (value, rest) = rest.split_once("\t\t").unwrap();
            let name = rest.split(':').next().unwrap();
            registers.insert(name.to_string(), u64::from_str_radix(value, 16).unwrap());
        }
        for (axis, key) in ["NGROUPS_X = ", "NGROUPS_Y = ", "NGROUPS_Z = "]
            .iter()
            .enumerate()
        {
            if let Some(n) = line
                .trim()
                .strip_prefix("{ ")
                .and_then(|l| l.strip_prefix(key))
            {
                groups[axis] = n.trim_end_matches(" }").parse().unwrap();
            }
        }
        if line.contains("STATE_TYPE = ST6_CONSTANTS") && consts.is_empty() {
            let dump = lines[i + 1..]
                .iter()
                .find_map(|l| l.split_once("0000: "))
                .unwrap()
                .1;
            consts = dump
                .split_whitespace()
                .map(|w| u32::from_str_radix(w, 16).unwrap())
                .collect();
        }
    }
    DecodedDispatch {
        registers,
        groups,
        consts,
    }
}

#[test]
fn turnips_compute_dispatch_is_gathered_as_the_decoder_reads_it() {
    for gpu in ["a660", "a740"] {
        let Some(dir) = parsnip_reference::reference_dir("turnip_compute_dispatch") else {
            return;
        };
        let log = std::fs::read_to_string(dir.join(format!("turnip/{gpu}/compute.log"))).unwrap();
        let expect = decoded(&log);
        let (mut replay, seen) = recording_replay(&dir.join(format!("turnip/{gpu}/compute.rd.gz")));
        let stats = replay.run_all().unwrap();
        assert_eq!(stats.len(), 1);
        assert_eq!(stats[0].dispatches, 1, "{gpu}");
        let d = seen.lock().unwrap()[0].clone();
        let r = |name: &str| expect.registers[name];

        assert_eq!(d.program_iova, r("SP_CS_OBJ_START"), "{gpu}");
        let nd = regs::HlsqCsNdrange0::from_raw(r("HLSQ_CS_NDRANGE_0") as u32);
        assert_eq!(
            d.local_size,
            [nd.localsizex + 1, nd.localsizey + 1, nd.localsizez + 1],
            "{gpu}"
        );
        assert_eq!(d.local_size, [64, 1, 1], "compute.c's local size");
        assert_eq!(d.group_count, expect.groups, "{gpu}");
        assert_eq!(d.group_count, [4, 1, 1], "compute.c dispatches 4 groups");
        let ctrl = regs::SpCsCtrlReg0::from_raw(r("SP_CS_CTRL_REG0") as u32);
        assert_eq!(ctrl.threadsize, A6xxThreadsize::THREAD64);
        assert_eq!(d.wave_size, 64);
        assert_eq!(
            (d.full_regs, d.half_regs, d.merged_regs),
            (
                ctrl.fullregfootprint,
                ctrl.halfregfootprint,
                ctrl.mergedregs
            )
        );
        let base =
            regs::SpCsBindlessBaseDescriptor::from_raw(r("SP_CS_BINDLESS_BASE[0].DESCRIPTOR"));
        assert_eq!(d.bindless[0].unwrap().iova, base.addr, "{gpu}");
        assert_eq!(d.bindless[0].unwrap().descriptor_size, 64);
        // CONSTLEN 4 vec4s (HLSQ_CS_CNTL = 0x101), of which 2 were loaded.
        assert_eq!(d.consts.len(), 16, "{gpu}");
        assert_eq!(
            &d.consts[..expect.consts.len()],
            &expect.consts[..],
            "{gpu}"
        );
        let wgid = regs::SpCsCntl0::from_raw(r("SP_CS_CNTL_0") as u32);
        assert_eq!(u32::from(d.work_group_id.0), wgid.wgidconstid);
        assert_eq!(u32::from(d.local_id.0), wgid.localidregid);
        let shared = regs::SpCsUnknownA9b1::from_raw(r("SP_CS_UNKNOWN_A9B1") as u32);
        assert_eq!(d.shared_size, (shared.shared_size + 1) * 1024);
        println!(
            "{gpu}: program {:#x}, {:?} x {:?}, {} consts, bindless base 0 at {:#x}",
            d.program_iova,
            d.local_size,
            d.group_count,
            d.consts.len(),
            d.bindless[0].unwrap().iova
        );
    }
}

/// Replaces the first type 4 write to `offset` in the IB at `iova` (its
/// top-level packets) with a CP_NOP of the same length; returns the dword it
/// patched.
fn nop_out_register_write(replay: &Replay, iova: u64, dwords: u32, offset: u32) -> u32 {
    let mem = replay.gpu().memory();
    let chip = replay.gpu().info().chip;
    let stream = mem.read_dwords(iova, dwords as usize).unwrap();
    let mut pos = 0;
    while pos < stream.len() {
        let header = Pm4Header::parse(stream[pos]).unwrap();
        if let Pm4Header::Type4 { offset: o, count } = header {
            if o == offset {
                let nop = pkt7(opcode_by_name(chip, "CP_NOP").unwrap(), count);
                mem.write_u32(iova + 4 * pos as u64, nop).unwrap();
                return pos as u32;
            }
        }
        pos += 1 + header.payload_dwords() as usize;
    }
    panic!("no write to {offset:#x} in the IB");
}

#[test]
fn strict_mode_names_a_register_write_removed_from_turnips_stream() {
    for gpu in ["a660", "a740"] {
        let Some(dir) = parsnip_reference::reference_dir("turnip_compute_strict") else {
            return;
        };
        let (mut replay, seen) = recording_replay(&dir.join(format!("turnip/{gpu}/compute.rd.gz")));
        replay.load_submit(0).unwrap();
        let cs = replay.trace().submits()[0].cmdstreams[0];
        let chip = replay.gpu().info().chip;
        let ndrange = regs::HlsqCsNdrange0::offset(chip).unwrap();
        let at = nop_out_register_write(&replay, cs.iova, cs.dwords, ndrange);
        let err = replay.run_submit(0).unwrap_err();
        let ReplayError::Gpu { error, .. } = &err else {
            panic!("{gpu}: {err}");
        };
        assert!(matches!(error.kind, ErrorKind::Register(_)), "{err}");
        assert!(
            err.to_string().contains(&format!(
                "strict mode: HLSQ_CS_NDRANGE_0 ({ndrange:#06x}) is read but was never written"
            )),
            "{err}"
        );
        assert_eq!(error.site.packet().unwrap().packet, "CP_EXEC_CS");
        assert!(seen.lock().unwrap().is_empty(), "nothing was launched");
        println!("{gpu}: write at dword {at} removed: {err}");
    }
}
