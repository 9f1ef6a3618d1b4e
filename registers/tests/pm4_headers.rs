//! PM4 headers against real ones: the reference logs print each packet's
//! header dword in the hex dump under `opcode: NAME (op) (N dwords)` or
//! `write NAME (offset)`. Parsing it must give that opcode or offset and
//! count, `pkt4`/`pkt7` must rebuild the same word, and the word with
//! either parity bit flipped must be rejected.

mod common;

use common::{dump_row, find_dump};
use parsnip_registers::pm4::{pkt4, pkt7, HeaderError, Pm4Header};

/// Logs of a5xx and later captures (type 4/7 packets).
const LOGS: &[&str] = &[
    "traces/reference/fd-clouds.log",
    "traces/reference/dEQP-VK.draw.indirect_draw.indexed.indirect_draw_count.triangle_list.log",
    "traces/reference/compute-a540.log",
    "turnip/a660/compute.log",
    "turnip/a660/triangle_sysmem.log",
    "turnip/a660/triangle_gmem.log",
    "turnip/a660/triangle_gmem-forcebin.log",
    "turnip/a740/compute.log",
    "turnip/a740/triangle_sysmem.log",
    "turnip/a740/triangle_gmem.log",
    "turnip/a740/triangle_gmem-forcebin.log",
];

fn assert_parity_checked(header: u32, bits: [u32; 2]) {
    for bit in bits {
        let bad = header ^ (1 << bit);
        assert!(
            matches!(Pm4Header::parse(bad), Err(HeaderError::BadParity { .. })),
            "{bad:08x} (bit {bit} of {header:08x} flipped) was accepted"
        );
    }
}

#[test]
fn headers_from_reference_logs() {
    let Some(dir) = parsnip_reference::reference_dir("headers_from_reference_logs") else {
        return;
    };
    let (mut type4, mut type7) = (0, 0);
    for file in LOGS {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let t = line.trim_start_matches('\t');
            if let Some(rest) = t.strip_prefix("opcode: ") {
                // `opcode: NAME (46) (2 dwords)`: the count is the payload.
                let mut f = rest.rsplit(" (");
                let size: u32 = f
                    .next()
                    .unwrap()
                    .trim_end_matches(" dwords)")
                    .parse()
                    .unwrap();
                let op = u32::from_str_radix(f.next().unwrap().trim_end_matches(')'), 16).unwrap();
                let want = Pm4Header::Type7 {
                    opcode: op,
                    count: size - 1,
                };
                // The dump follows the packet (after an IB's contents): the
                // first row holding a type 7 header with this opcode.
                let at = find_dump(&lines, i + 1, |w| w >> 28 == 7 && (w >> 16 & 0x7f) == op)
                    .unwrap_or_else(|| panic!("{file}:{}: no dump", i + 1));
                let header = dump_row(lines[at]).unwrap().1[0];
                assert_eq!(Pm4Header::parse(header), Ok(want), "{file}:{}", i + 1);
                assert_eq!(pkt7(op, size - 1), header, "{file}:{}", i + 1);
                assert_parity_checked(header, [23, 15]);
                type7 += 1;
            } else if let Some(rest) = t.strip_prefix("write ") {
                let Some((_, off)) = rest.rsplit_once(" (") else {
                    continue;
                };
                let offset = u32::from_str_radix(off.trim_end_matches(')'), 16).unwrap();
                let at = find_dump(&lines, i + 1, |w| {
                    w >> 28 == 4 && (w >> 8 & 0x3ffff) == offset
                })
                .unwrap_or_else(|| panic!("{file}:{}: no dump", i + 1));
                let header = dump_row(lines[at]).unwrap().1[0];
                let Ok(Pm4Header::Type4 { offset: o, count }) = Pm4Header::parse(header) else {
                    panic!("{file}:{}: {header:08x} does not parse", i + 1)
                };
                assert_eq!(o, offset, "{file}:{}", i + 1);
                assert_eq!(pkt4(offset, count), header, "{file}:{}", i + 1);
                assert_parity_checked(header, [27, 7]);
                type4 += 1;
            }
        }
    }
    println!(
        "pm4 headers: {type4} type 4 and {type7} type 7 headers from the reference logs checked"
    );
    assert!(
        type4 > 1000 && type7 > 500,
        "too few headers found ({type4}, {type7})"
    );
}

#[test]
fn header_type_and_reserved_bits_are_checked() {
    assert_eq!(
        Pm4Header::parse(0x8000_0000),
        Err(HeaderError::UnknownType {
            header: 0x8000_0000
        })
    );
    assert_eq!(
        Pm4Header::parse(0xc010_0000),
        Err(HeaderError::UnknownType {
            header: 0xc010_0000
        })
    );
    // 0x70268000 (CP_WAIT_FOR_IDLE) with a reserved bit 24 set.
    assert!(matches!(
        Pm4Header::parse(0x7126_8000),
        Err(HeaderError::ReservedBits { .. })
    ));
}
