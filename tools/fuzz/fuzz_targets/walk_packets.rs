//! Any dwords as an IB: the packet walker must not panic, must tile the IB
//! (each packet or error starts where the previous one ended), and its
//! packets must be whole.

#![no_main]

use libfuzzer_sys::fuzz_target;
use parsnip_tools::decode::{PacketWalker, WalkError};

fuzz_target!(|data: &[u8]| {
    let dwords: Vec<u32> = data
        .chunks_exact(4)
        .map(|d| u32::from_le_bytes([d[0], d[1], d[2], d[3]]))
        .collect();
    let mut next = 0;
    for item in PacketWalker::new(&dwords) {
        match item {
            Ok(packet) => {
                assert_eq!(packet.index, next);
                assert_eq!(
                    packet.dwords.len(),
                    1 + packet.header.payload_dwords() as usize
                );
                assert_eq!(packet.dwords, &dwords[next..next + packet.dwords.len()]);
                next += packet.dwords.len();
            }
            Err(WalkError::BadHeader { index, skipped, .. }) => {
                assert_eq!(index, next);
                assert!(skipped >= 1);
                next += skipped;
            }
            Err(WalkError::PastEnd {
                index,
                payload,
                available,
                ..
            }) => {
                assert_eq!(index, next);
                assert!(payload as usize > available);
                next = dwords.len();
            }
        }
    }
    assert_eq!(next, dwords.len());
});
