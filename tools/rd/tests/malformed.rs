//! Malformed traces: every truncation of a small trace, corrupted lengths
//! and types, random damage. Each gives an `Err` at the offset of the
//! section that is wrong, never a panic; and whatever still parses writes
//! back to the very bytes it was read from.

mod reference_corpus;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

use parsnip_rd::{Compression, Error, ErrorKind, Section, SectionType, Trace, Writer};

fn u32s(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// A trace written out by hand, with the offset at which each unit (a
/// section, or a padding pair) starts; the last entry is the end.
fn handmade() -> (Vec<u8>, Vec<u64>) {
    let units = [
        u32s(&[13, 4, 630]),                         // 0: RD_GPU_ID
        u32s(&[0xffff_ffff, 0xffff_ffff]),           // 12: padding
        [u32s(&[2, 4]), b"abc\0".to_vec()].concat(), // 20: RD_CMD
        u32s(&[3, 12, 0x1000, 16, 0]),               // 32: RD_GPUADDR
        u32s(&[12, 16, 0x7026_8000, 2, 3, 4]),       // 52: RD_BUFFER_CONTENTS
        u32s(&[6, 12, 0x1000, 4, 0]),                // 76: RD_CMDSTREAM_ADDR
        [u32s(&[17, 30, 0x1000, 0, 16, 0, 1, 0]), b"out.b\0".to_vec()].concat(), // 96
        [u32s(&[40, 3]), vec![1, 2, 3]].concat(),    // 134: unknown type 40
    ];
    let mut starts = vec![0];
    let mut bytes = Vec::new();
    for unit in units {
        bytes.extend_from_slice(&unit);
        starts.push(bytes.len() as u64);
    }
    assert_eq!(starts, [0, 12, 20, 32, 52, 76, 96, 134, 145]);
    (bytes, starts)
}

fn rewritten(trace: &Trace) -> Vec<u8> {
    let mut writer = Writer::new(Vec::new(), Compression::None);
    trace.write(&mut writer).unwrap();
    writer.finish().unwrap()
}

/// Builds the model and asks its memory for every command stream, which
/// must not panic whatever the trace holds.
fn exercise(trace: &Trace) {
    for (submit, cmdstream) in trace.cmdstreams() {
        let memory = trace.memory(submit).unwrap();
        if let Err(e) = memory.dwords(cmdstream.iova, cmdstream.dwords) {
            assert!(e.to_string().contains("GPU address"));
        }
    }
}

#[test]
fn the_handmade_trace_reads_as_written() {
    let (bytes, _) = handmade();
    let trace = Trace::read(&bytes[..]).unwrap();
    let types: Vec<u32> = trace
        .records()
        .iter()
        .map(|r| r.section.section_type().0)
        .collect();
    assert_eq!(types, [13, 2, 3, 12, 6, 17, 40]);
    assert_eq!(trace.records()[1].padding, 1);
    assert_eq!(trace.records()[1].offset, 20);
    let memory = trace.memory(0).unwrap();
    assert_eq!(memory.dwords(0x1000, 4).unwrap(), [0x7026_8000, 2, 3, 4]);
    match &trace.records()[6].section {
        Section::Unknown {
            section_type,
            payload,
        } => assert_eq!((section_type.0, payload.as_slice()), (40, &[1, 2, 3][..])),
        other => panic!("{other:?}"),
    }
    assert_eq!(rewritten(&trace), bytes);
}

/// Cut at every offset: at a unit boundary the prefix is a valid trace;
/// anywhere else the error names the unit the cut falls in.
#[test]
fn every_truncation_of_a_small_trace_names_its_section() {
    let (bytes, starts) = handmade();
    for cut in 0..=bytes.len() as u64 {
        let prefix = &bytes[..cut as usize];
        match Trace::read(prefix) {
            Ok(trace) => {
                assert!(starts.contains(&cut), "cut at {cut} parsed");
                assert_eq!(rewritten(&trace), prefix);
            }
            Err(Error { offset, kind }) => {
                let unit = starts.iter().rev().find(|&&s| s <= cut).copied().unwrap();
                assert_eq!(offset, unit, "cut at {cut}: {kind}");
                if cut - unit < 8 {
                    assert!(
                        matches!(kind, ErrorKind::TruncatedHeader { available } if available == cut - unit),
                        "cut at {cut}: {kind}"
                    );
                } else {
                    assert!(
                        matches!(kind, ErrorKind::TruncatedPayload { available, .. }
                            if available == cut - unit - 8),
                        "cut at {cut}: {kind}"
                    );
                }
            }
        }
    }
}

/// A gzip trace cut anywhere but at the end of a member fails cleanly.
#[test]
fn every_truncation_of_a_gzip_trace_fails_cleanly() {
    let (bytes, _) = handmade();
    let original = Trace::read(&bytes[..]).unwrap();
    let mut writer = Writer::new(Vec::new(), Compression::Gzip(6));
    for (i, record) in original.records().iter().enumerate() {
        writer.write_record(record).unwrap();
        if i == 3 {
            writer.checkpoint().unwrap();
        }
    }
    let first_member = {
        let mut probe = Writer::new(Vec::new(), Compression::Gzip(6));
        for record in &original.records()[..4] {
            probe.write_record(record).unwrap();
        }
        probe.finish().unwrap().len()
    };
    let gzip = writer.finish().unwrap();
    for cut in 0..=gzip.len() {
        match Trace::read(&gzip[..cut]) {
            Ok(trace) => {
                assert!([0, first_member, gzip.len()].contains(&cut), "cut at {cut}");
                exercise(&trace);
            }
            Err(e) => assert!(e.offset <= bytes.len() as u64, "{e}"),
        }
    }
}

#[test]
fn errors_say_what_is_wrong_and_where() {
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (
            u32s(&[13, 4, 630, 3, 10, 0, 0]),
            "at offset 0xc: RD_GPUADDR has a 10-byte payload; its payload is 8 or 12 bytes",
        ),
        (
            u32s(&[12, 4, 0]),
            "at offset 0x0: RD_BUFFER_CONTENTS with no RD_GPUADDR before it",
        ),
        (
            u32s(&[3, 12, 0x1000, 16, 0, 12, 8, 0, 0]),
            "at offset 0x14: RD_BUFFER_CONTENTS holds 8 bytes but the RD_GPUADDR at offset 0x0 declared 16",
        ),
        (
            u32s(&[1, 100, 0]),
            "at offset 0x0: RD_TEST declares 100 bytes of payload but the file ends after 4",
        ),
        (
            [u32s(&[13, 4, 630]), vec![14, 0, 0]].concat(),
            "at offset 0xc: truncated section header: the file ends 3 bytes into the 8-byte header",
        ),
        (
            u32s(&[14, 4, 0]),
            "at offset 0x0: RD_CHIP_ID has a 4-byte payload; its payload is 8 bytes",
        ),
        (
            u32s(&[8, 4, 0]),
            "at offset 0x0: RD_FLUSH has a 4-byte payload; its payload is 0 bytes",
        ),
    ];
    for (bytes, message) in cases {
        assert_eq!(Trace::read(&bytes[..]).unwrap_err().to_string(), message);
    }
    // Damage inside a gzip stream is reported as such.
    let mut writer = Writer::new(Vec::new(), Compression::Gzip(6));
    writer.cmd(&"x".repeat(1000)).unwrap();
    let mut gzip = writer.finish().unwrap();
    let middle = gzip.len() / 2;
    gzip[middle] ^= 0x55;
    gzip[middle + 1] ^= 0x55;
    let err = Trace::read(&gzip[..]).unwrap_err();
    assert!(matches!(err.kind, ErrorKind::Io { .. }), "{err}");
}

/// Where the sections of an intact trace start, found by walking the
/// headers (independently of the reader): (start, type, payload length).
fn sections(bytes: &[u8]) -> Vec<(u64, u32, u32)> {
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let (section_type, len) = (word(at), word(at + 4));
        if (section_type, len) != (u32::MAX, u32::MAX) {
            out.push((at as u64, section_type, len));
            at += len as usize;
        }
        at += 8;
    }
    out
}

fn set_word(bytes: &mut [u8], at: u64, value: u32) {
    bytes[at as usize..at as usize + 4].copy_from_slice(&value.to_le_bytes());
}

/// The payload sizes the format allows for a type, if it fixes them.
fn allowed_sizes(section_type: u32) -> Option<&'static [u32]> {
    match section_type {
        3 | 6 | 15 | 16 => Some(&[8, 12]),
        7 => Some(&[12]),
        8 => Some(&[0]),
        13 => Some(&[4]),
        14 => Some(&[8]),
        _ => None,
    }
}

/// A real trace for the properties: small, with buffers, command streams,
/// an uncaptured range and more than one submit.
fn real_trace(test: &str) -> Option<Vec<u8>> {
    let path = parsnip_reference::reference_file(
        test,
        "traces/dEQP-VK.draw.indirect_draw.indexed.indirect_draw_count.triangle_list.rd.gz",
    )?;
    Some(reference_corpus::decompressed(&path))
}

fn runner() -> TestRunner {
    TestRunner::new(Config {
        cases: 256,
        failure_persistence: None,
        ..Config::default()
    })
}

fn check_error_at(
    result: Result<Trace, Error>,
    offset: u64,
    kind_ok: impl Fn(&ErrorKind) -> bool,
) -> Result<(), TestCaseError> {
    match result {
        Ok(_) => Err(TestCaseError::fail(format!(
            "parsed; expected an error at {offset:#x}"
        ))),
        Err(e) => {
            prop_assert_eq!(e.offset, offset, "{}", e);
            prop_assert!(kind_ok(&e.kind), "{}", e);
            Ok(())
        }
    }
}

#[test]
fn truncated_real_traces_name_the_section_cut() {
    let Some(bytes) = real_trace("truncated_real_traces_name_the_section_cut") else {
        return;
    };
    let sections = sections(&bytes);
    runner()
        .run(&(0..bytes.len()), |cut| {
            let unit = sections.iter().rev().find(|s| s.0 <= cut as u64).unwrap().0;
            match Trace::read(&bytes[..cut]) {
                Ok(trace) => {
                    prop_assert_eq!(unit, cut as u64);
                    prop_assert!(rewritten(&trace) == bytes[..cut], "written back differs");
                }
                Err(e) => prop_assert_eq!(e.offset, unit, "{}", e),
            }
            Ok(())
        })
        .unwrap();
}

/// A length past the end of the file: the error is at that section.
#[test]
fn lengths_past_the_end_are_reported_at_their_section() {
    let Some(bytes) = real_trace("lengths_past_the_end_are_reported_at_their_section") else {
        return;
    };
    let sections = sections(&bytes);
    runner()
        .run(&(0..sections.len(), any::<u32>()), |(k, extra)| {
            let (start, section_type, _) = sections[k];
            let room = bytes.len() as u64 - start - 8;
            let Ok(len) = u32::try_from(room + 1 + u64::from(extra) % 1_000_000) else {
                return Ok(());
            };
            let mut damaged = bytes.clone();
            set_word(&mut damaged, start + 4, len);
            check_error_at(Trace::read(&damaged[..]), start, |kind| match kind {
                ErrorKind::PayloadSize { .. } => allowed_sizes(section_type).is_some(),
                ErrorKind::ContentsSize { .. } => section_type == 12,
                ErrorKind::TruncatedPayload { declared, .. } => *declared == u64::from(len),
                _ => false,
            })
        })
        .unwrap();
}

/// A fixed-size section, or buffer contents, given another length that
/// still fits the file: the error is at that section.
#[test]
fn wrong_sizes_are_reported_at_their_section() {
    let Some(bytes) = real_trace("wrong_sizes_are_reported_at_their_section") else {
        return;
    };
    let checked: Vec<_> = sections(&bytes)
        .into_iter()
        .filter(|&(_, t, _)| allowed_sizes(t).is_some() || t == 12)
        .collect();
    runner()
        .run(&(0..checked.len(), 0u32..64), |(k, len)| {
            let (start, section_type, original) = checked[k];
            let allowed = allowed_sizes(section_type).unwrap_or(&[]);
            if len == original || allowed.contains(&len) {
                return Ok(());
            }
            let mut damaged = bytes.clone();
            set_word(&mut damaged, start + 4, len);
            check_error_at(Trace::read(&damaged[..]), start, |kind| {
                matches!(
                    kind,
                    ErrorKind::PayloadSize { .. } | ErrorKind::ContentsSize { .. }
                )
            })
        })
        .unwrap();
}

/// A section retyped to a number no writer uses is kept raw: the trace
/// still reads (unless it was the address some contents needed) and writes
/// back to the damaged bytes.
#[test]
fn unknown_types_are_kept_and_written_back() {
    let Some(bytes) = real_trace("unknown_types_are_kept_and_written_back") else {
        return;
    };
    let sections = sections(&bytes);
    runner()
        .run(&(0..sections.len(), 18u32..0xffff_fffe), |(k, new_type)| {
            let (start, old_type, len) = sections[k];
            let mut damaged = bytes.clone();
            set_word(&mut damaged, start, new_type);
            match Trace::read(&damaged[..]) {
                Ok(trace) => {
                    prop_assert!(rewritten(&trace) == damaged, "written back differs");
                    let record = trace.records().iter().find(|r| r.offset == start).unwrap();
                    prop_assert_eq!(record.section.section_type(), SectionType(new_type));
                    prop_assert_eq!(record.section.payload().len(), len as usize);
                    exercise(&trace);
                }
                Err(e) => {
                    // Only losing an address can break the trace, at the
                    // contents that needed it.
                    prop_assert_eq!(old_type, 3);
                    let next_contents = sections
                        .iter()
                        .find(|s| s.0 > start && s.1 == 12)
                        .map(|s| s.0);
                    prop_assert_eq!(Some(e.offset), next_contents, "{}", e);
                }
            }
            Ok(())
        })
        .unwrap();
}

/// Random damage anywhere: never a panic; an error stays within the file;
/// what parses writes back unchanged.
#[test]
fn random_damage_never_panics_and_what_parses_round_trips() {
    let Some(bytes) = real_trace("random_damage_never_panics_and_what_parses_round_trips") else {
        return;
    };
    let damage = proptest::collection::vec((0..bytes.len(), any::<u8>()), 1..8);
    runner()
        .run(&damage, |flips| {
            let mut damaged = bytes.clone();
            for (at, value) in flips {
                damaged[at] = value;
            }
            match Trace::read(&damaged[..]) {
                Ok(trace) => {
                    prop_assert!(rewritten(&trace) == damaged, "written back differs");
                    exercise(&trace);
                }
                Err(e) => prop_assert!(e.offset < damaged.len() as u64, "{}", e),
            }
            Ok(())
        })
        .unwrap();
}
