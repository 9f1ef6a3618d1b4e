//! Bisection against a reference image: the render target read as 8-bit
//! RGBA rows of `width * 4` bytes (a linear target, as the Turnip
//! references' result buffers are: turnip/README.md), compared per channel
//! with a tolerance, and written as PNG for a person to look at.

use std::path::Path;

use super::{region_after, with_work_up_to, work_lines};

/// An RGBA8 image, row 0 first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

impl Image {
    /// Reads an 8-bit RGB or RGBA PNG.
    pub fn read_png(path: &Path) -> Result<Image, String> {
        let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut decoder = png::Decoder::new(std::io::BufReader::new(file));
        decoder.set_transformations(png::Transformations::EXPAND);
        let mut reader = decoder
            .read_info()
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let mut buf = vec![0u8; reader.output_buffer_size().unwrap_or(0)];
        let info = reader
            .next_frame(&mut buf)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if info.bit_depth != png::BitDepth::Eight {
            return Err(format!("{}: not 8 bits a channel", path.display()));
        }
        let pixels = (info.width * info.height) as usize;
        let rgba = match info.color_type {
            png::ColorType::Rgba => buf[..pixels * 4].to_vec(),
            png::ColorType::Rgb => buf[..pixels * 3]
                .chunks(3)
                .flat_map(|p| [p[0], p[1], p[2], 0xff])
                .collect(),
            other => return Err(format!("{}: colour type {other:?}", path.display())),
        };
        Ok(Image {
            width: info.width,
            height: info.height,
            rgba,
        })
    }

    /// Writes the image as an RGBA PNG.
    pub fn write_png(&self, path: &Path) -> Result<(), String> {
        let file = std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), self.width, self.height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder
            .write_header()
            .map_err(|e| format!("{}: {e}", path.display()))?;
        writer
            .write_image_data(&self.rgba)
            .map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The image the same size as `self` at `iova` after replaying `text`.
    fn like_after(&self, text: &str, iova: u64) -> Result<Image, String> {
        let size = u64::from(self.width) * u64::from(self.height) * 4;
        Ok(Image {
            rgba: region_after(text, iova, size)?,
            ..self.clone()
        })
    }

    /// The pixels (indexes) in which a channel differs from `other`'s by
    /// more than `tolerance`.
    pub fn differing(&self, other: &Image, tolerance: u8) -> Vec<usize> {
        self.rgba
            .chunks(4)
            .zip(other.rgba.chunks(4))
            .enumerate()
            .filter(|(_, (a, b))| a.iter().zip(*b).any(|(x, y)| x.abs_diff(*y) > tolerance))
            .map(|(i, _)| i)
            .collect()
    }
}

/// What a bisection against an image found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImageFinding {
    /// Pixels of the whole replay differing from the reference.
    pub wrong_pixels: usize,
    /// The first draw or dispatch (from 1) that writes a wrong pixel its
    /// final wrong value, with its packet's line (from 1); `None` if the
    /// replay matches the reference.
    pub first_bad_work: Option<(usize, usize)>,
    /// The render target just before and just after that draw.
    pub before: Option<Image>,
    pub after: Option<Image>,
}

/// Finds the draw that puts the misrender into the render target at
/// `iova` (laid out as `reference`). Intermediate targets cannot be
/// compared with a final image, so the draw blamed is the first one after
/// which a pixel the whole replay gets wrong already holds its final value
/// and that draw changed it.
pub fn bisect_image(
    bad: &str,
    reference: &Image,
    iova: u64,
    tolerance: u8,
    mut progress: impl FnMut(&str),
) -> Result<ImageFinding, String> {
    let last = reference.like_after(bad, iova)?;
    let wrong = last.differing(reference, tolerance);
    progress(&format!(
        "{} of {} pixels differ from the reference",
        wrong.len(),
        reference.width * reference.height
    ));
    let mut found = ImageFinding {
        wrong_pixels: wrong.len(),
        first_bad_work: None,
        before: None,
        after: None,
    };
    if wrong.is_empty() {
        return Ok(found);
    }
    let works = work_lines(bad);
    let mut before = reference.like_after(&with_work_up_to(bad, 0), iova)?;
    for k in 1..=works.len() {
        let after = reference.like_after(&with_work_up_to(bad, k), iova)?;
        let px = |img: &Image, i: usize| img.rgba[i * 4..i * 4 + 4].to_vec();
        let culprit = wrong
            .iter()
            .any(|&i| px(&after, i) == px(&last, i) && px(&before, i) != px(&after, i));
        progress(&format!(
            "after draw/dispatch {k} of {}: {}",
            works.len(),
            if culprit {
                "wrong pixels written"
            } else {
                "no wrong pixel written"
            }
        ));
        if culprit {
            found.first_bad_work = Some((k, works[k - 1] + 1));
            found.before = Some(before);
            found.after = Some(after);
            return Ok(found);
        }
        before = after;
    }
    Ok(found)
}
