//! Reading a trace and writing it back gives the bytes it was read from; the
//! writer's conveniences give the bytes freedreno's writers give.

mod reference_corpus;

use std::fs::File;
use std::io::Read;

use parsnip_rd::{Compression, Section, SectionReader, Trace, Writer};
use reference_corpus::{decompressed, short_name, traces};

fn written(trace: &Trace, compression: Compression) -> Vec<u8> {
    let mut writer = Writer::new(Vec::new(), compression);
    trace.write(&mut writer).unwrap();
    writer.finish().unwrap()
}

#[test]
fn every_reference_trace_writes_back_byte_for_byte() {
    let Some(dir) =
        parsnip_reference::reference_dir("every_reference_trace_writes_back_byte_for_byte")
    else {
        return;
    };
    for path in traces(&dir) {
        let original = decompressed(&path);
        let trace = Trace::open(&path).unwrap();
        let plain = written(&trace, Compression::None);
        assert!(
            plain == original,
            "{}: written back differs from byte {:?}",
            short_name(&path),
            plain.iter().zip(&original).position(|(a, b)| a != b)
        );

        // Compressed, it decompresses (with flate2 directly) to the same
        // bytes, and reads back to the same model.
        let gzip = written(&trace, Compression::Gzip(6));
        let mut unpacked = Vec::new();
        flate2::read::MultiGzDecoder::new(&gzip[..])
            .read_to_end(&mut unpacked)
            .unwrap();
        assert!(unpacked == original, "{}", short_name(&path));
        assert_eq!(Trace::read(&gzip[..]).unwrap(), trace);
        println!(
            "{}: {} bytes, {} sections written back identical",
            short_name(&path),
            original.len(),
            trace.records().len()
        );
    }
}

/// The section reader streams a trace from a file and sees what the whole
/// trace holds.
#[test]
fn streaming_a_trace_gives_the_sections_of_the_whole() {
    let Some(path) = parsnip_reference::reference_file(
        "streaming_a_trace_gives_the_sections_of_the_whole",
        "traces/shadow.rd.gz",
    ) else {
        return;
    };
    let trace = Trace::open(&path).unwrap();
    let mut reader = SectionReader::new(File::open(&path).unwrap()).unwrap();
    assert!(reader.is_gzip());
    let mut count = 0;
    for (record, whole) in reader.by_ref().zip(trace.records()) {
        assert_eq!(&record.unwrap(), whole);
        count += 1;
    }
    assert!(reader.next().is_none());
    assert_eq!(count, trace.records().len());
    assert_eq!(reader.offset(), decompressed(&path).len() as u64);
}

/// A dump hook using only the conveniences (chip id, cmd string, buffers,
/// command stream address) rebuilds each Turnip trace byte for byte: the
/// conveniences write what Mesa's writer wrote.
#[test]
fn conveniences_rebuild_the_turnip_traces() {
    let Some(dir) = parsnip_reference::reference_dir("conveniences_rebuild_the_turnip_traces")
    else {
        return;
    };
    for path in traces(&dir) {
        if short_name(&path).starts_with("traces/") {
            continue;
        }
        let trace = Trace::open(&path).unwrap();
        let mut writer = Writer::new(Vec::new(), Compression::None);
        let mut records = trace.records().iter();
        while let Some(record) = records.next() {
            match &record.section {
                Section::ChipId(id) => writer.chip_id(*id).unwrap(),
                Section::Cmd(_) => writer.cmd(&record.section.text().unwrap()).unwrap(),
                Section::GpuAddr(address) => {
                    let contents = match records.next().map(|r| &r.section) {
                        Some(Section::BufferContents(bytes)) => bytes,
                        other => panic!("contents expected after a GPUADDR, got {other:?}"),
                    };
                    writer.buffer(address.iova(), contents).unwrap();
                }
                Section::CmdstreamAddr(address) => writer
                    .cmdstream_addr(address.iova(), address.len())
                    .unwrap(),
                other => panic!("Turnip does not write {other:?}"),
            }
        }
        assert!(
            writer.finish().unwrap() == decompressed(&path),
            "{}",
            short_name(&path)
        );
    }
}

/// The layouts of the README, written out by hand.
#[test]
fn conveniences_write_the_documented_layouts() {
    let mut writer = Writer::new(Vec::new(), Compression::None);
    writer.gpu_id(630).unwrap();
    writer.cmd("x").unwrap();
    writer
        .buffer(0x1_0002_6000, &[0xef, 0xbe, 0xad, 0xde])
        .unwrap();
    writer.cmdstream_addr(0x1_0002_8000, 185).unwrap();
    writer.wrbuffer(0x1_0002_6000, 1024, true, "out").unwrap();
    writer.chip_id(0x4305_0a01).unwrap();
    let u32s =
        |values: &[u32]| -> Vec<u8> { values.iter().flat_map(|v| v.to_le_bytes()).collect() };
    let expected = [
        u32s(&[13, 4, 630]),
        u32s(&[2, 2]),
        b"x\0".to_vec(),
        u32s(&[3, 12, 0x0002_6000, 4, 1]),
        u32s(&[12, 4, 0xdead_beef]),
        u32s(&[6, 12, 0x0002_8000, 185, 1]),
        u32s(&[17, 28, 0x0002_6000, 1, 1024, 0, 1, 0]),
        b"out\0".to_vec(),
        u32s(&[14, 8, 0x4305_0a01, 0]),
    ]
    .concat();
    assert_eq!(writer.offset(), expected.len() as u64);
    assert_eq!(writer.finish().unwrap(), expected);
}

/// With a checkpoint after each submit, a gzip trace is a series of gzip
/// members (so a crash loses at most the submit being written), and reads
/// back whole.
#[test]
fn checkpoints_end_gzip_members() {
    let mut writer = Writer::new(Vec::new(), Compression::Gzip(1));
    for submit in 0..3u64 {
        writer.cmd(&format!("submit {submit}")).unwrap();
        writer.buffer(0x1000 * submit, &[submit as u8; 64]).unwrap();
        writer.cmdstream_addr(0x1000 * submit, 16).unwrap();
        writer.checkpoint().unwrap();
    }
    writer.checkpoint().unwrap();
    let file = writer.finish().unwrap();

    // A single-member decoder stops after the first submit.
    let mut first = Vec::new();
    flate2::read::GzDecoder::new(&file[..])
        .read_to_end(&mut first)
        .unwrap();
    let first_member = Trace::read(&first[..]).unwrap();
    assert_eq!(first_member.submits().len(), 1);

    let trace = Trace::read(&file[..]).unwrap();
    assert_eq!(trace.submits().len(), 3);
    for (i, submit) in trace.submits().iter().enumerate() {
        assert_eq!(submit.cmdstreams[0].iova, 0x1000 * i as u64);
        let memory = trace.memory(i).unwrap();
        assert_eq!(
            memory.read_u32(0x1000 * i as u64).unwrap(),
            0x0101_0101 * i as u32
        );
    }
}

/// The writer refuses what the reader would refuse, at the offset the
/// section would have had.
#[test]
fn the_writer_refuses_what_the_reader_refuses() {
    let mut writer = Writer::new(Vec::new(), Compression::None);
    let err = writer
        .write_section(&Section::BufferContents(vec![0; 4]))
        .unwrap_err();
    assert_eq!(err.offset, 0);
    assert_eq!(
        err.to_string(),
        "at offset 0x0: RD_BUFFER_CONTENTS with no RD_GPUADDR before it"
    );
    writer.gpu_id(630).unwrap();
    writer
        .write_section(&Section::GpuAddr(parsnip_rd::Address::new(0x1000, 8)))
        .unwrap();
    let err = writer
        .write_section(&Section::BufferContents(vec![0; 4]))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "at offset 0x20: RD_BUFFER_CONTENTS holds 4 bytes but the RD_GPUADDR at offset 0xc declared 8"
    );
    let err = writer
        .write_section(&Section::Unknown {
            section_type: parsnip_rd::SectionType::GPU_ID,
            payload: vec![0; 3],
        })
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "at offset 0x20: RD_GPU_ID has a 3-byte payload; its payload is 4 bytes"
    );
}
