//! The reference images (lavapipe's PNGs in `turnip/expected/`) and how tests compare
//! what they render with them.

use std::io::Read;

/// The RGBA8 pixels of a PNG image (8-bit RGB or RGBA, not interlaced, as
/// the reference images are), row 0 first.
pub fn decode_png(bytes: &[u8]) -> (usize, usize, Vec<u8>) {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "not a PNG");
    let mut at = 8;
    let (mut width, mut height, mut channels) = (0, 0, 0);
    let mut compressed = Vec::new();
    while at < bytes.len() {
        let len = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        let kind = &bytes[at + 4..at + 8];
        let data = &bytes[at + 8..at + 8 + len];
        match kind {
            b"IHDR" => {
                width = u32::from_be_bytes(data[0..4].try_into().unwrap()) as usize;
                height = u32::from_be_bytes(data[4..8].try_into().unwrap()) as usize;
                assert_eq!(data[8], 8, "8-bit channels");
                channels = match data[9] {
                    2 => 3,
                    6 => 4,
                    other => panic!("PNG colour type {other}"),
                };
                assert_eq!(data[12], 0, "not interlaced");
            }
            b"IDAT" => compressed.extend_from_slice(data),
            _ => {}
        }
        at += 12 + len;
    }
    let mut raw = Vec::new();
    flate2::read::ZlibDecoder::new(&compressed[..])
        .read_to_end(&mut raw)
        .unwrap();
    // Undo each row's filter (PNG specification, section 9).
    let stride = width * channels;
    let mut rows = vec![0u8; height * stride];
    for y in 0..height {
        let line = &raw[y * (stride + 1)..(y + 1) * (stride + 1)];
        let (filter, line) = (line[0], &line[1..]);
        for x in 0..stride {
            let a = if x >= channels {
                rows[y * stride + x - channels]
            } else {
                0
            };
            let b = if y > 0 { rows[(y - 1) * stride + x] } else { 0 };
            let c = if x >= channels && y > 0 {
                rows[(y - 1) * stride + x - channels]
            } else {
                0
            };
            let predicted = match filter {
                0 => 0,
                1 => a,
                2 => b,
                3 => ((u16::from(a) + u16::from(b)) / 2) as u8,
                4 => {
                    let p = i16::from(a) + i16::from(b) - i16::from(c);
                    let (pa, pb, pc) = (
                        (p - i16::from(a)).abs(),
                        (p - i16::from(b)).abs(),
                        (p - i16::from(c)).abs(),
                    );
                    if pa <= pb && pa <= pc {
                        a
                    } else if pb <= pc {
                        b
                    } else {
                        c
                    }
                }
                other => panic!("PNG filter {other}"),
            };
            rows[y * stride + x] = line[x].wrapping_add(predicted);
        }
    }
    let rgba = rows
        .chunks(channels)
        .flat_map(|p| [p[0], p[1], p[2], if channels == 4 { p[3] } else { 255 }])
        .collect();
    (width, height, rgba)
}

/// The pixels where `got` differs from `expected`, split into those inside
/// a region of one colour in `expected` (its 3x3 neighbourhood is all the
/// same) and those on an edge.
pub fn compare(expected: &[u8], got: &[u8], w: usize, h: usize) -> (Vec<(usize, usize)>, usize) {
    let px = |b: &[u8], x: usize, y: usize| -> [u8; 4] {
        b[4 * (y * w + x)..4 * (y * w + x) + 4].try_into().unwrap()
    };
    let mut interior = Vec::new();
    let mut edge = 0;
    for y in 0..h {
        for x in 0..w {
            if px(expected, x, y) == px(got, x, y) {
                continue;
            }
            let flat = (y.saturating_sub(1)..(y + 2).min(h)).all(|ny| {
                (x.saturating_sub(1)..(x + 2).min(w))
                    .all(|nx| px(expected, nx, ny) == px(expected, x, y))
            });
            if flat {
                interior.push((x, y));
            } else {
                edge += 1;
            }
        }
    }
    (interior, edge)
}
