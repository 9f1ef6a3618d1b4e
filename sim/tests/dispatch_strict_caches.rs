//! Strict caches and UCHE: a compute shader stores a value and the CP
//! copies it with CP_MEM_TO_MEM in the same submit. The shader's store
//! stays in UCHE until CACHE_FLUSH_TS ("Flushes dirty data from UCHE",
//! adreno_pm4.xml; a7xx: CACHE_CLEAN, as Turnip's tu6_emit_flushes emits
//! it), and the CP reads memory: without the flush it copies what memory
//! held before the dispatch, as on hardware (and strict mode reports the
//! missing flush); with it, the stored value. After the submit memory
//! holds the store either way.

mod common;

use common::compute_state::{exec_cs, program_cs, Omit, PROGRAM};
use common::resolve_state::{event, FLUSH_SCRATCH};
use common::{lo_hi, test_options, Rig, Stream, DATA, GPUS};
use parsnip_isa::{assemble, IsaGen};
use parsnip_registers::enums::VgtEventType;
use parsnip_registers::packets::CpEventWriteDw0;
use parsnip_registers::Chip;
use parsnip_sim::SimOptions;

const RESULT: u64 = DATA + 0x4000;
const COPY: u64 = DATA + 0x4100;
const OLD: u32 = 0xdead_0001;
const STORED: u32 = 0x1234_5678;

/// UCHE's flush as Turnip emits it.
fn flush_uche(s: &mut Stream) {
    match s.chip {
        Chip::A6xx => {
            let [lo, hi] = lo_hi(FLUSH_SCRATCH);
            let dw0 = CpEventWriteDw0 {
                event: VgtEventType::CACHE_FLUSH_TS,
                ..Default::default()
            };
            s.pkt("CP_EVENT_WRITE", &[dw0.to_raw(), lo, hi, 0]);
        }
        Chip::A7xx => event(s, VgtEventType::CACHE_CLEAN),
    }
}

/// Runs the store and the copy; returns (copy, result) after the submit.
fn store_then_copy(gpu: &str, options: SimOptions, flush: bool) -> (u32, u32) {
    let (mut rig, s) = store_and_copy(gpu, options, flush);
    rig.run(&s).unwrap_or_else(|e| panic!("{e}"));
    (rig.read_u32(COPY), rig.read_u32(RESULT))
}

/// The rig and the stream of [`store_then_copy`].
fn store_and_copy(gpu: &str, options: SimOptions, flush: bool) -> (Rig, Stream) {
    let rig = Rig::with_model(gpu, options);
    let isa = if gpu == "a660" {
        IsaGen::A6xx
    } else {
        IsaGen::A7xx
    };
    let [lo, hi] = lo_hi(RESULT);
    let shader = format!(
        "mov.u32u32 r2.x, {lo:#x}\nmov.u32u32 r2.y, {hi:#x}\nmov.u32u32 r1.x, {STORED:#x}\n\
         stg.u32 g[r2.x], r1.x, 1\nend\n"
    );
    let program = assemble(&shader, isa).unwrap();
    let bytes: Vec<u8> = program.iter().flat_map(|w| w.to_le_bytes()).collect();
    rig.gpu.memory().write(PROGRAM, &bytes).unwrap();
    rig.write_u32(RESULT, OLD);
    rig.write_u32(COPY, 0);
    let mut s = rig.stream();
    program_cs(&mut s, Omit::default());
    exec_cs(&mut s, [1, 1, 1]);
    if flush {
        flush_uche(&mut s);
    }
    let [dlo, dhi] = lo_hi(COPY);
    s.pkt("CP_MEM_TO_MEM", &[0, dlo, dhi, lo, hi]);
    (rig, s)
}

/// Strict caches without strict mode: stale reads go unreported.
fn lax() -> SimOptions {
    SimOptions {
        strict: false,
        ..test_options()
    }
}

fn coherent() -> SimOptions {
    SimOptions {
        strict_caches: false,
        ..test_options()
    }
}

#[test]
fn the_cp_reading_a_shaders_store_before_the_uche_flush_reads_stale_data() {
    for gpu in GPUS {
        assert!(test_options().strict_caches);
        assert_eq!(store_then_copy(gpu, lax(), false), (OLD, STORED), "{gpu}");
        // Strict mode names the read and the missing event.
        let (mut rig, s) = store_and_copy(gpu, test_options(), false);
        let e = rig.run(&s).unwrap_err().to_string();
        assert!(
            e.contains(&format!(
                "strict caches: the CP reads {RESULT:#x}, which UCHE (a shader or another unit \
                 wrote it) holds newer than memory: CACHE_FLUSH_TS (a7xx CACHE_CLEAN) is missing"
            )),
            "{gpu}: {e}"
        );
        assert!(e.contains("CP_MEM_TO_MEM"), "{gpu}: {e}");
        assert_eq!(
            store_then_copy(gpu, coherent(), false),
            (STORED, STORED),
            "{gpu}"
        );
    }
}

#[test]
fn with_the_uche_flush_the_cp_reads_the_store() {
    for gpu in GPUS {
        assert_eq!(
            store_then_copy(gpu, test_options(), true),
            (STORED, STORED),
            "{gpu}"
        );
    }
}
