//! Any bytes, as a `.rd` (or a `.rd.gz` when they start with the gzip
//! magic): reading must not panic; what reads must write back to the same
//! bytes; the section stream and the whole-trace model must agree; memory
//! lookups for every command stream must not panic.

#![no_main]

use libfuzzer_sys::fuzz_target;
use parsnip_rd::{Compression, SectionReader, Trace, Writer};

fuzz_target!(|data: &[u8]| {
    let streamed: Vec<_> = match SectionReader::new(data) {
        Ok(reader) => reader.collect(),
        Err(_) => return,
    };
    let trace = match Trace::read(data) {
        Ok(trace) => trace,
        Err(error) => {
            // The stream fails at the same place.
            let last = streamed.last().and_then(|r| r.as_ref().err());
            assert_eq!(last.map(|e| e.offset), Some(error.offset));
            return;
        }
    };
    assert_eq!(streamed.len(), trace.records().len());

    let is_gzip = data.starts_with(&[0x1f, 0x8b]);
    if !is_gzip {
        let mut writer = Writer::new(Vec::new(), Compression::None);
        trace
            .write(&mut writer)
            .expect("a trace that was read writes back");
        assert!(writer.finish().unwrap() == data, "written back differs");
    }

    for (submit, cmdstream) in trace.cmdstreams() {
        let memory = trace.memory(submit).expect("submit of a cmdstream");
        let _ = memory.dwords(cmdstream.iova, cmdstream.dwords);
        let _ = memory.resolve(cmdstream.iova);
        let _ = memory.read_u64(cmdstream.iova.wrapping_sub(4));
    }
});
