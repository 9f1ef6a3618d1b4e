//! The reference images (lavapipe's PNGs in `turnip/expected/`) and how tests compare
//! what they render with them.

/// The RGBA8 pixels of an 8-bit RGB or RGBA PNG image (as the reference
/// images are), row 0 first. Panics, naming the problem, on anything else:
/// the reference files are fixed inputs of the tests.
pub fn decode_png(bytes: &[u8]) -> (usize, usize, Vec<u8>) {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::EXPAND);
    let mut reader = decoder.read_info().expect("a PNG image");
    let mut buf = vec![
        0u8;
        reader
            .output_buffer_size()
            .expect("an image that fits in memory")
    ];
    let info = reader.next_frame(&mut buf).expect("a PNG image");
    assert_eq!(info.bit_depth, png::BitDepth::Eight, "8-bit channels");
    let (w, h) = (info.width as usize, info.height as usize);
    let rgba = match info.color_type {
        png::ColorType::Rgba => buf[..w * h * 4].to_vec(),
        png::ColorType::Rgb => buf[..w * h * 3]
            .chunks(3)
            .flat_map(|p| [p[0], p[1], p[2], 0xff])
            .collect(),
        other => panic!("PNG colour type {other:?}"),
    };
    (w, h, rgba)
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
