//! `parsnip-replay --draw-images DIR`: after each draw, blit event and
//! CP_BLIT, every bound colour target as a PNG (parsnip-sim's `capture`
//! renders them, resolving the bin's pixels from GMEM in a bin pass).
//!
//! Files are named `s<submit>-<step>-<work>-rt<target>.png`: `step` counts
//! the submit's work from 0 in the order it ran (four digits, so the names
//! sort in that order), `work` is `draw<N>`, `blit<N>` (a BLIT event) or
//! `2d<N>` (CP_BLIT), numbered per kind in the submit.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use parsnip_sim::capture::{Work, WorkDone};
use parsnip_sim::Gpu;

use crate::bisect::image::Image;

/// What the observer of one replay has written, and its first error.
#[derive(Default)]
struct Written {
    files: Vec<PathBuf>,
    error: Option<String>,
}

/// Writes the images of a replay's work into a directory.
pub struct DrawImages {
    dir: PathBuf,
    written: Arc<Mutex<Written>>,
}

impl DrawImages {
    /// Writes into `dir`, which is created if missing.
    pub fn new(dir: &Path) -> Result<DrawImages, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        Ok(DrawImages {
            dir: dir.to_path_buf(),
            written: Default::default(),
        })
    }

    /// Observes `gpu`'s work as submit `submit`'s, until the next call.
    pub fn observe_submit(&self, gpu: &Gpu, submit: usize) {
        let dir = self.dir.clone();
        let written = Arc::clone(&self.written);
        let mut step = 0u32;
        gpu.set_work_observer(Some(Box::new(move |done: &WorkDone| {
            let mut w = written.lock().expect("never poisoned");
            if w.error.is_none() {
                if let Err(e) = write_step(&dir, submit, step, done, &mut w.files) {
                    w.error = Some(e);
                }
            }
            step += 1;
        })));
    }

    /// The files written so far, or the first error.
    pub fn files(&self) -> Result<Vec<PathBuf>, String> {
        let w = self.written.lock().expect("never poisoned");
        match &w.error {
            Some(e) => Err(e.clone()),
            None => Ok(w.files.clone()),
        }
    }
}

fn write_step(
    dir: &Path,
    submit: usize,
    step: u32,
    done: &WorkDone,
    files: &mut Vec<PathBuf>,
) -> Result<(), String> {
    let work = match done.work {
        Work::Draw(n) => format!("draw{n}"),
        Work::BlitEvent(n) => format!("blit{n}"),
        Work::Blit2d(n) => format!("2d{n}"),
    };
    let targets = done
        .color_targets()
        .map_err(|e| format!("submit {submit}, {work}: the render targets: {e}"))?;
    for t in targets {
        let path = dir.join(format!("s{submit}-{step:04}-{work}-rt{}.png", t.target));
        Image {
            width: t.width,
            height: t.height,
            rgba: t.rgba,
        }
        .write_png(&path)?;
        files.push(path);
    }
    Ok(())
}
