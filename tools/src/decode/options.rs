//! What to decode and how to show it. The options and their meaning follow
//! freedreno's decoder (`cffdump`) where it has them, so users' habits and
//! scripts carry over.

/// Decoder options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeOptions {
    /// Decode only the command streams numbered `start..=end` (freedreno's
    /// "frames" are the trace's command streams, counted from 0);
    /// `--frame N` sets both to N.
    pub start: u32,
    pub end: u32,
    /// Decode an IB only once per render mode (binning, GMEM, sysmem): an IB
    /// run for every tile is shown for the first tile only.
    pub once: bool,
    /// Show only what happens for draw N (the packets after draw N-1 up to
    /// and including draw N's register summary).
    pub draw: Option<u32>,
    /// One line per command stream and per draw, dispatch or blit instead of
    /// the full decode.
    pub summary: bool,
    /// In each draw's register summary, every register written so far, not
    /// only those written since the previous draw.
    pub all_registers: bool,
    /// ANSI colour on opcode and register names.
    pub color: bool,
    /// Decode the command streams of compositors too (freedreno skips
    /// submits whose `RD_CMD` names `fdperf`, `chrome`, `surfaceflinger` or
    /// starts with `X`).
    pub show_compositor: bool,
    /// Decode only submits whose `RD_CMD` starts with this process name.
    pub exe: Option<String>,
}

impl Default for DecodeOptions {
    fn default() -> Self {
        Self {
            start: 0,
            end: u32::MAX,
            once: false,
            draw: None,
            summary: false,
            all_registers: false,
            color: false,
            show_compositor: false,
            exe: None,
        }
    }
}

impl DecodeOptions {
    /// Only command stream `frame`.
    pub fn frame(mut self, frame: u32) -> Self {
        self.start = frame;
        self.end = frame;
        self
    }

    /// Whether command stream `number` is to be decoded.
    pub fn selects(&self, number: u32) -> bool {
        (self.start..=self.end).contains(&number)
    }

    /// The options freedreno's CI used for the reference logs of
    /// `traces/reference/` (`--frame 0 --once`).
    pub fn reference_ci() -> Self {
        Self {
            once: true,
            ..Self::default().frame(0)
        }
    }
}
