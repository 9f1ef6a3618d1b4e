//! Any bytes as a `.rd` (or `.rd.gz`): decoding must not panic nor hang,
//! with and without `--once`, in full and in summary mode.

#![no_main]

use libfuzzer_sys::fuzz_target;
use parsnip_tools::decode::{decode_trace, DecodeOptions};

fuzz_target!(|data: &[u8]| {
    for options in [
        DecodeOptions::default(),
        DecodeOptions {
            once: true,
            summary: true,
            ..DecodeOptions::default()
        },
    ] {
        let _ = decode_trace(data, options, std::io::sink());
    }
});
