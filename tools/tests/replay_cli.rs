//! parsnip-replay as a user runs it: traces written here with the rd
//! crate's writer, the memory it dumps, and its errors.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use parsnip_rd::{Compression, Writer};
use parsnip_registers::pm4::{opcode_by_name, pkt7};
use parsnip_registers::Chip;

/// A scratch directory for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("parsnip-replay-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn replay(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_parsnip-replay"))
        .args(args)
        .env("PARSNIP_SIM_WAIT_MS", "50")
        .output()
        .unwrap()
}

fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const IB: u64 = 0x1_0000_0000;
const DATA: u64 = 0x1_0000_1000;

/// A one-submit trace for `chip_id` whose IB writes `value` to DATA + 8,
/// then does what `tail` adds; gzipped if the name ends in `.gz`.
fn write_trace(path: &Path, chip_id: u64, value: u32, tail: &[u32]) {
    let chip = if chip_id >> 24 == 6 {
        Chip::A6xx
    } else {
        Chip::A7xx
    };
    let op = opcode_by_name(chip, "CP_MEM_WRITE").unwrap();
    let mut ib = vec![pkt7(op, 3), (DATA + 8) as u32, (DATA >> 32) as u32, value];
    ib.extend_from_slice(tail);
    let ib_bytes: Vec<u8> = ib.iter().flat_map(|d| d.to_le_bytes()).collect();
    let compression = if path.extension().is_some_and(|e| e == "gz") {
        Compression::Gzip(6)
    } else {
        Compression::None
    };
    let mut w = Writer::new(std::fs::File::create(path).unwrap(), compression);
    w.chip_id(chip_id).unwrap();
    w.cmd("parsnip test").unwrap();
    w.buffer(IB, &ib_bytes).unwrap();
    w.buffer(DATA, &[0xee; 64]).unwrap();
    w.cmdstream_addr(IB, ib.len() as u32).unwrap();
    w.checkpoint().unwrap();
    w.finish().unwrap();
}

#[test]
fn a_replay_dumps_the_memory_its_streams_wrote() {
    let dir = scratch("dump");
    let trace = dir.join("t.rd.gz");
    write_trace(&trace, 0x0606_00ff, 0x1234_5678, &[]);
    let out_file = dir.join("out.bin");
    let spec = format!("{DATA:#x}:16:{}", out_file.display());
    let out = replay(&[trace.to_str().unwrap(), "--dump", &spec]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("a660 (Adreno 660), 1 submits"), "{stdout}");
    assert!(stdout.contains("submit 0: 1 packets"), "{stdout}");
    let bytes = std::fs::read(&out_file).unwrap();
    let mut expect = vec![0xee; 16];
    expect[8..12].copy_from_slice(&0x1234_5678u32.to_le_bytes());
    assert_eq!(bytes, expect);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_fault_prints_the_report_and_fails() {
    let dir = scratch("fault");
    let trace = dir.join("t.rd.gz");
    let op = opcode_by_name(Chip::A7xx, "CP_MEM_WRITE").unwrap();
    // The second write goes to an address no buffer covers.
    write_trace(&trace, 0x4305_0a01, 1, &[pkt7(op, 3), 0xdead_0000, 0x5, 2]);
    let out = replay(&[trace.to_str().unwrap()]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr.contains(
            "submit 0, cmdstream[0]: *** gpu fault: iova=0x00000005dead0000 dir=WRITE len=4 \
             source=CP (CP_MEM_WRITE at IB1 0x100000000 dword 4"
        ),
        "{stderr}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_missing_trace_is_a_clear_error() {
    let out = replay(&["/nonexistent/trace.rd.gz"]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr
            .contains("/nonexistent/trace.rd.gz: at offset 0x0: opening /nonexistent/trace.rd.gz"),
        "{stderr}"
    );
    assert!(stderr.contains("No such file or directory"), "{stderr}");
}

#[test]
fn a_truncated_trace_is_a_clear_error() {
    let dir = scratch("truncated");
    let trace = dir.join("t.rd");
    write_trace(&trace, 0x0606_00ff, 1, &[]);
    // Cut it inside its last section.
    let plain = std::fs::read(&trace).unwrap();
    let cut = dir.join("cut.rd");
    std::fs::write(&cut, &plain[..plain.len() - 6]).unwrap();
    let out = replay(&[cut.to_str().unwrap()]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr.contains("cut.rd: at offset 0x"), "{stderr}");
    assert!(stderr.contains("truncated"), "{stderr}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_trace_of_an_unknown_gpu_is_a_clear_error() {
    let dir = scratch("unknown");
    let trace = dir.join("t.rd.gz");
    write_trace(&trace, 0x0999_0001, 1, &[]);
    let out = replay(&[trace.to_str().unwrap()]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr.contains(
            "the trace's GPU: unsupported GPU chip_id 0x9990001; Parsnip supports a618, a630"
        ),
        "{stderr}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bad_arguments_print_the_usage() {
    for args in [
        &[][..],
        &["t.rd", "--dump"],
        &["t.rd", "--dump", "1:x:f"],
        &["--what"],
        &["--override"],
        &["t.rd", "--override", "t.txt"],
    ] {
        let out = replay(args);
        let (_, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("usage: parsnip-replay (TRACE.rd[.gz] | --override FILE)"),
            "{stderr}"
        );
    }
}

#[test]
fn a_dump_of_unmapped_memory_is_a_clear_error() {
    let dir = scratch("unmapped-dump");
    let trace = dir.join("t.rd.gz");
    write_trace(&trace, 0x0606_00ff, 1, &[]);
    let out = replay(&[trace.to_str().unwrap(), "--dump", "0x200000000:16:x.bin"]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr.contains("dumping 0x200000000+0x10 to x.bin: the range is not all mapped"),
        "{stderr}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn stats_print_what_each_dispatch_executed() {
    let Some(dir) = parsnip_reference::reference_dir("replay_cli_stats") else {
        return;
    };
    let trace = dir.join("turnip/a660/compute.rd.gz");
    let out = replay(&[trace.to_str().unwrap(), "--stats"]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}{stderr}");
    // By hand from turnip/a660/compute.pipeline-executable.txt: 4 work
    // groups of one 64-fiber wave, each running add.u, shl.b,
    // (ss)(nop3) add.u, (nop3) shl.b, (rpt2)nop, stib.b, end: 7
    // instructions, 3 + 3 + 3 nop cycles, one (ss); estimated
    // 1 + 1 + (1 + 3 + 10) + (1 + 3) + 3 + 1 + 1 = 25 cycles a wave.
    assert!(
        stdout.contains(
            "dispatch 0: 4 work groups, 4 waves, 28 instructions, 36 nop cycles, \
             4 (ss) waits, 0 (sy) waits, ~100 cycles"
        ),
        "{stdout}"
    );
}

/// A trace whose stream writes into GMEM through its aperture at `base`.
fn write_gmem_trace(dir: &Path, base: u64) -> PathBuf {
    let trace = dir.join("t.rd");
    let op = opcode_by_name(Chip::A6xx, "CP_MEM_WRITE").unwrap();
    let tail = [pkt7(op, 3), base as u32, (base >> 32) as u32, 0xcafe_f00d];
    write_trace(&trace, 0x0606_00ff, 1, &tail);
    trace
}

#[test]
fn gmem_is_mapped_where_gmem_base_says() {
    let dir = scratch("gmem-base");
    let trace = write_gmem_trace(&dir, 0x40_0000);
    let out_file = dir.join("gmem.bin");
    let spec = format!("0x400000:4:{}", out_file.display());
    let out = replay(&[
        trace.to_str().unwrap(),
        "--gmem-base",
        "0x400000",
        "--dump",
        &spec,
    ]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert_eq!(
        std::fs::read(&out_file).unwrap(),
        0xcafe_f00du32.to_le_bytes()
    );

    // Where the default aperture (0x100000) is not, the same write faults.
    let out = replay(&[trace.to_str().unwrap()]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("iova=0x0000000000400000"), "{stderr}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn gmem_base_none_leaves_gmem_unmapped() {
    let dir = scratch("gmem-none");
    let trace = write_gmem_trace(&dir, 0x10_0000);
    let out = replay(&[trace.to_str().unwrap()]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let out = replay(&[trace.to_str().unwrap(), "--gmem-base", "none"]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("iova=0x0000000000100000"), "{stderr}");
    let out = replay(&[trace.to_str().unwrap(), "--gmem-base", "fast"]);
    let (_, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--gmem-base fast is neither"), "{stderr}");
    std::fs::remove_dir_all(dir).unwrap();
}
