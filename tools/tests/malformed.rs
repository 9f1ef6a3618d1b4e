//! Malformed traces: the decoder reports what is wrong, with where (command
//! stream, GPU address, file offset), and goes on; it never panics, never
//! loops forever. Hand-made traces for each kind of damage, then property
//! tests over randomly damaged ones (synthetic, and the reference traces
//! when present).

use parsnip_rd::{Compression, Section, SectionType, Writer};
use parsnip_registers::pm4::{pkt4, pkt7};
use parsnip_tools::decode::{decode_trace, DecodeOptions, TraceDecode};
use proptest::prelude::*;

/// CP_INDIRECT_BUFFER, CP_WAIT_FOR_IDLE and CP_SET_DRAW_STATE, CP_DRAW_INDX_OFFSET
/// (adreno_pm4.xml).
const CP_INDIRECT_BUFFER: u32 = 0x3f;
const CP_WAIT_FOR_IDLE: u32 = 0x26;
const CP_SET_DRAW_STATE: u32 = 0x43;
const CP_DRAW_INDX_OFFSET: u32 = 0x38;

fn bytes(dwords: &[u32]) -> Vec<u8> {
    dwords.iter().flat_map(|d| d.to_le_bytes()).collect()
}

fn ib_call(iova: u64, dwords: u32) -> [u32; 4] {
    [
        pkt7(CP_INDIRECT_BUFFER, 3),
        iova as u32,
        (iova >> 32) as u32,
        dwords,
    ]
}

/// An a660 trace of one submit: `buffers` dumped, then the command stream.
fn trace(buffers: &[(u64, Vec<u32>)], cmdstream: (u64, u32)) -> Vec<u8> {
    let mut w = Writer::new(Vec::new(), Compression::None);
    w.chip_id(0x0606_00ff).unwrap();
    w.cmd("malformed/1: fence=1").unwrap();
    for (iova, dwords) in buffers {
        w.buffer(*iova, &bytes(dwords)).unwrap();
    }
    w.cmdstream_addr(cmdstream.0, cmdstream.1).unwrap();
    w.finish().unwrap()
}

fn decode(data: &[u8]) -> (String, TraceDecode<Vec<u8>>) {
    let mut result = decode_trace(data, DecodeOptions::default(), Vec::new()).unwrap();
    let text = String::from_utf8_lossy(&std::mem::take(&mut result.output)).into_owned();
    (text, result)
}

fn notes(result: &TraceDecode<Vec<u8>>) -> Vec<String> {
    result.notes.iter().map(ToString::to_string).collect()
}

#[test]
fn an_ib_that_calls_itself_is_reported_not_followed() {
    let ib = [
        ib_call(0x1_0000_1000, 5).to_vec(),
        vec![pkt7(CP_WAIT_FOR_IDLE, 0)],
    ]
    .concat();
    let main = [ib_call(0x1_0000_1000, 5).to_vec()].concat();
    let data = trace(
        &[(0x1_0000_0000, main), (0x1_0000_1000, ib)],
        (0x1_0000_0000, 4),
    );
    let (text, result) = decode(&data);
    // The outer call walks the IB once; its call to itself is not followed.
    assert_eq!(text.matches("ibaddr:0000000100001000").count(), 2);
    assert_eq!(text.matches("opcode: CP_WAIT_FOR_IDLE").count(), 1);
    let notes = notes(&result);
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(
        notes[0].starts_with("cmdstream[0], GPU address 0x100001000, file offset 0x")
            && notes[0].contains("IB loop: the IB at 0x100001000 (5 dwords) calls itself"),
        "{notes:?}"
    );
}

#[test]
fn a_packet_counting_past_the_end_of_its_ib_is_reported_with_its_offsets() {
    // A type 4 write of 3 registers with only 1 value left in the IB.
    let ib = vec![pkt7(CP_WAIT_FOR_IDLE, 0), pkt4(0x8800, 3), 0x1234];
    let data = trace(&[(0x2000, ib)], (0x2000, 3));
    let (text, result) = decode(&data);
    assert!(text.contains("opcode: CP_WAIT_FOR_IDLE"));
    assert!(!text.contains("write RB_BIN_CONTROL"));
    let notes = notes(&result);
    assert_eq!(notes.len(), 1, "{notes:?}");
    // The buffer's contents start after 4 sections: chip id (16 bytes), the
    // RD_CMD (8 + 21), the RD_GPUADDR (20) and the contents header (8).
    let contents = 16 + 8 + 21 + 20 + 8;
    assert_eq!(
        notes[0],
        format!(
            "cmdstream[0], GPU address 0x2004, file offset {:#x}: packet 48880083 counts 3 \
             payload dwords but only 1 are left in the IB",
            contents + 4
        )
    );
}

#[test]
fn an_ib_larger_than_its_capture_is_decoded_as_far_as_captured() {
    let ib = vec![pkt7(CP_WAIT_FOR_IDLE, 0), pkt7(CP_WAIT_FOR_IDLE, 0)];
    let data = trace(&[(0x3000, ib)], (0x3000, 100));
    let (text, result) = decode(&data);
    assert_eq!(text.matches("opcode: CP_WAIT_FOR_IDLE").count(), 2);
    let notes = notes(&result);
    assert!(
        notes[0].contains("100 dwords at 0x3000 run past the end of the captured buffer at 0x3000 (8 bytes); 2 dwords shown"),
        "{notes:?}"
    );
}

#[test]
fn memory_that_was_not_captured_is_reported() {
    // A command stream calling an IB nobody dumped, and a draw state group
    // in memory nobody dumped.
    let main = [
        ib_call(0xdead_0000, 16).to_vec(),
        vec![pkt7(CP_SET_DRAW_STATE, 3), 0x0070_0004, 0xbeef_0000, 0],
        vec![pkt7(CP_DRAW_INDX_OFFSET, 3), 0x4, 1, 3],
    ]
    .concat();
    let len = main.len() as u32;
    let data = trace(&[(0x4000, main)], (0x4000, len));
    let (text, result) = decode(&data);
    assert!(text.contains("ibaddr:00000000dead0000"));
    assert!(text.contains("draw[0] register values"));
    let found = notes(&result);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0]
        .contains("GPU address 0xdead0000: could not find the IB at 0xdead0000 (16 dwords)"));
    assert!(found[1].contains("GPU address 0xbeef0000: draw state group 0: nothing was captured"));
    // A command stream whose own address was not captured.
    let data = trace(&[(0x4000, vec![0])], (0x9000, 4));
    let (text, result) = decode(&data);
    assert!(text.contains("NULL cmd buffer!"));
    assert!(
        notes(&result)[0].contains("nothing was captured at the command stream's address 0x9000")
    );
}

#[test]
fn unknown_sections_are_skipped_with_a_note() {
    let mut w = Writer::new(Vec::new(), Compression::None);
    w.gpu_id(630).unwrap();
    w.write_section(&Section::Unknown {
        section_type: SectionType(99),
        payload: vec![1, 2, 3],
    })
    .unwrap();
    w.buffer(0x1000, &bytes(&[pkt7(CP_WAIT_FOR_IDLE, 0)]))
        .unwrap();
    w.cmdstream_addr(0x1000, 1).unwrap();
    let data = w.finish().unwrap();
    let (text, result) = decode(&data);
    assert!(text.contains("opcode: CP_WAIT_FOR_IDLE"));
    assert_eq!(
        notes(&result),
        ["file offset 0xc: skipped a section of unknown section type 99"]
    );
}

#[test]
fn a_truncated_trace_is_decoded_up_to_the_damage() {
    let ib = vec![pkt7(CP_WAIT_FOR_IDLE, 0)];
    let mut data = trace(&[(0x1000, ib.clone())], (0x1000, 1));
    let good = data.len();
    // A second submit whose buffer contents are cut short.
    let mut w = Writer::new(Vec::new(), Compression::None);
    w.buffer(0x1000, &bytes(&[ib, vec![0; 15]].concat()))
        .unwrap();
    let second = w.finish().unwrap();
    data.extend_from_slice(&second[..second.len() - 10]);
    let (text, result) = decode(&data);
    assert!(text.contains("cmdstream[0]: 1 dwords"));
    let error = result.read_error.expect("the damage is reported");
    // The contents section's header is after the second RD_GPUADDR.
    assert_eq!(error.offset, good as u64 + 20);
    assert!(error
        .to_string()
        .starts_with(&format!("at offset {:#x}: ", good + 20)));
}

#[test]
fn a_trace_without_a_gpu_is_not_decoded() {
    let mut w = Writer::new(Vec::new(), Compression::None);
    w.buffer(0x1000, &bytes(&[pkt7(CP_WAIT_FOR_IDLE, 0)]))
        .unwrap();
    w.cmdstream_addr(0x1000, 1).unwrap();
    let data = w.finish().unwrap();
    let (text, result) = decode(&data);
    assert!(text.contains("cmdstream[0]: 1 dwords") && !text.contains("opcode"));
    assert!(
        notes(&result)[0].contains("no RD_GPU_ID or RD_CHIP_ID came before this command stream")
    );
}

#[test]
fn ibs_calling_ibs_thousands_of_times_stop_at_the_packet_budget() {
    // 400 calls of 400 calls of 400 register writes: 64 million packets.
    let calls = |iova: u64, dwords: u32| {
        (0..400)
            .flat_map(|_| ib_call(iova, dwords))
            .collect::<Vec<_>>()
    };
    let writes: Vec<u32> = (0..400).flat_map(|i| [pkt4(0x8800, 1), i]).collect();
    let data = trace(
        &[
            (0x1000, calls(0x10_0000, 1600)),
            (0x10_0000, calls(0x20_0000, 800)),
            (0x20_0000, writes),
        ],
        (0x1000, 1600),
    );
    let options = DecodeOptions {
        summary: true,
        ..DecodeOptions::default()
    };
    let result = decode_trace(&data[..], options, std::io::sink()).unwrap();
    let notes: Vec<String> = result.notes.iter().map(ToString::to_string).collect();
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0]
        .contains("more than 4000000 packets in one command stream; the rest is not decoded"));
}

/// A small valid a660 trace: an IB1 calling an IB2 with register writes, a
/// draw state group and a draw.
fn healthy_trace() -> Vec<u8> {
    let group = vec![pkt4(0x8800, 1), 0x0600_1008, pkt4(0xa81c, 2), 0x6000, 0];
    let ib2 = vec![
        pkt4(0x8c18, 3),
        0x1013000,
        0,
        0x10,
        pkt7(CP_SET_DRAW_STATE, 3),
        0x0070_0000 | group.len() as u32,
        0x5000,
        0,
        pkt7(CP_DRAW_INDX_OFFSET, 3),
        0x4,
        1,
        3,
    ];
    let main = [
        ib_call(0x2000, ib2.len() as u32).to_vec(),
        vec![pkt7(CP_WAIT_FOR_IDLE, 0)],
    ]
    .concat();
    let shader = vec![0x0000_0000, 0x0300_0000, 0, 0, 0, 0, 0, 0, 0, 0];
    trace(
        &[
            (0x1000, main),
            (0x2000, ib2),
            (0x5000, group),
            (0x6000, shader),
        ],
        (0x1000, 5),
    )
}

#[test]
fn the_healthy_trace_decodes_without_notes() {
    let (text, result) = decode(&healthy_trace());
    assert!(result.notes.is_empty(), "{:?}", notes(&result));
    assert!(text.contains("RB_BIN_CONTROL: { BINW = 256 | BINH = 256"));
    assert!(text.contains(":0:0000:0000[03000000x_00000000x] end"));
    assert!(text.contains("draw[0] register values"));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Any dword of a valid trace changed, or the file cut anywhere.
    #[test]
    fn damaged_synthetic_traces_never_panic(
        changes in prop::collection::vec((any::<prop::sample::Index>(), any::<u32>()), 1..8),
        cut in any::<prop::sample::Index>(),
        truncate in any::<bool>(),
    ) {
        let mut data = healthy_trace();
        for (at, value) in changes {
            let i = at.index(data.len() / 4) * 4;
            data[i..i + 4].copy_from_slice(&value.to_le_bytes());
        }
        if truncate {
            data.truncate(cut.index(data.len()));
        }
        for options in [DecodeOptions::default(), DecodeOptions { once: true, summary: true, ..DecodeOptions::default() }] {
            let _ = decode_trace(&data[..], options, std::io::sink());
        }
    }
}

/// The uncompressed bytes of a reference trace.
fn reference_trace(test: &str, path: &str) -> Option<Vec<u8>> {
    let file = parsnip_reference::reference_file(test, path)?;
    let mut data = Vec::new();
    let mut reader = parsnip_rd::SectionReader::open(file).unwrap();
    let mut w = Writer::new(&mut data, Compression::None);
    while let Some(record) = reader.next_record().unwrap() {
        w.write_record(&record).unwrap();
    }
    w.finish().unwrap();
    Some(data)
}

#[test]
fn damaged_reference_traces_never_panic() {
    let test = "damaged_reference_traces_never_panic";
    let Some(data) = reference_trace(
        test,
        "traces/dEQP-VK.draw.indirect_draw.indexed.indirect_draw_count.triangle_list.rd.gz",
    ) else {
        return;
    };
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases: 64,
        ..ProptestConfig::default()
    });
    let strategy = prop::collection::vec((any::<prop::sample::Index>(), any::<u32>()), 1..32);
    runner
        .run(&strategy, |changes| {
            let mut data = data.clone();
            for (at, value) in changes {
                let i = at.index(data.len() / 4) * 4;
                data[i..i + 4].copy_from_slice(&value.to_le_bytes());
            }
            let options = DecodeOptions {
                once: true,
                ..DecodeOptions::default()
            };
            let _ = decode_trace(&data[..], options, std::io::sink());
            Ok(())
        })
        .unwrap();
}
