//! Decoding a whole `.rd` trace: its sections in order, as freedreno's
//! decoder reads them.
//!
//! - The first non-zero `RD_GPU_ID` or `RD_CHIP_ID` selects the GPU; every
//!   decoder state is reset then.
//! - `RD_GPUADDR` + `RD_BUFFER_CONTENTS` pairs add buffers; the first
//!   `RD_GPUADDR` after an `RD_CMDSTREAM_ADDR` drops them all, so each
//!   submit carries its own.
//! - Each `RD_CMDSTREAM_ADDR` is a command stream, decoded against the
//!   buffers seen so far when its number is selected.
//!
//! Sections are read one at a time, so what comes before a corrupt part of
//! a file is decoded before the error is reported. Sections of unknown type
//! are skipped with a note.

use std::fmt;
use std::io::{self, Read, Write};

use parsnip_rd::{text_until_nul, Section, SectionReader};
use parsnip_registers::{gpu, Chip};

use super::decoder::Decoder;
use super::draws::DrawRecord;
use super::memory::{CapturedBuffers, GpuMemory};
use super::note::Note;
use super::options::DecodeOptions;

/// The GPU a trace was captured on, as far as the decoder is concerned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceGpu {
    /// An a6xx/a7xx the register database covers.
    Supported { chip: Chip, name: String },
    /// A GPU of another generation: its command streams are shown in hex.
    Unsupported { name: String },
}

/// What decoding a trace produced besides the text.
#[derive(Debug)]
pub struct TraceDecode<W> {
    pub output: W,
    pub gpu: Option<TraceGpu>,
    /// Command streams in the trace, and how many were decoded.
    pub cmdstreams: u32,
    pub decoded: u32,
    pub notes: Vec<Note>,
    pub draws: Vec<DrawRecord>,
    /// The trace is corrupt from this point on; what came before was
    /// decoded.
    pub read_error: Option<parsnip_rd::Error>,
}

/// Decoding could not go on.
#[derive(Debug)]
pub enum DecodeError {
    /// The input could not be read at all.
    Open(parsnip_rd::Error),
    /// Writing the decoded text failed.
    Output(io::Error),
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::Open(e) => write!(f, "reading the trace: {e}"),
            DecodeError::Output(e) => write!(f, "writing the decoded trace: {e}"),
        }
    }
}

impl std::error::Error for DecodeError {}

impl TraceGpu {
    /// A GPU of generation `generation` (freedreno's `fd_dev_id` chip).
    fn of_generation(generation: u64, name: String) -> Option<Self> {
        Some(match generation {
            6 => TraceGpu::Supported {
                chip: Chip::A6xx,
                name,
            },
            7 => TraceGpu::Supported {
                chip: Chip::A7xx,
                name,
            },
            2..=5 => TraceGpu::Unsupported { name },
            _ => return None,
        })
    }

    fn known(info: &gpu::GpuInfo) -> Self {
        TraceGpu::Supported {
            chip: info.chip,
            name: info.name.to_string(),
        }
    }
}

/// The GPU an `RD_GPU_ID` names: one of Parsnip's GPUs, or any other by
/// its hundreds digit.
fn gpu_from_id(gpu_id: u32) -> Option<TraceGpu> {
    match gpu::by_gpu_id(gpu_id) {
        Ok(info) => Some(TraceGpu::known(info)),
        Err(_) => TraceGpu::of_generation(u64::from(gpu_id / 100), format!("a{gpu_id}")),
    }
}

/// The GPU an `RD_CHIP_ID` names: by freedreno's chip id table, else by
/// its generation byte (the top byte of the low 32 bits; 0x43 is how the
/// newer a7xx parts, such as the a740, number themselves).
fn gpu_from_chip_id(chip_id: u64) -> Option<TraceGpu> {
    if let Ok(info) = gpu::by_chip_id(chip_id) {
        return Some(TraceGpu::known(info));
    }
    let generation = match chip_id >> 24 & 0xff {
        0x43 => 7,
        g => g,
    };
    TraceGpu::of_generation(generation, format!("chip id {chip_id:#x}"))
}

/// Whether freedreno's decoder skips the submits of the process an
/// `RD_CMD` names.
fn skips_process(command: &str, options: &DecodeOptions) -> bool {
    match &options.exe {
        Some(exe) => !command.starts_with(exe.as_str()),
        None if options.show_compositor => false,
        None => {
            ["fdperf", "chrome", "surfaceflinger"]
                .iter()
                .any(|p| command.starts_with(p))
                || command.starts_with('X')
        }
    }
}

/// The decoder and what it needs across sections.
struct TraceState<W: Write> {
    decoder: Decoder<W>,
    gpu: Option<TraceGpu>,
    buffers: CapturedBuffers,
    /// The last `RD_GPUADDR`: where the next contents go.
    address: Option<u64>,
    /// The next `RD_GPUADDR` starts a new submit.
    new_submit: bool,
    skip_process: bool,
    /// The process the last `RD_CMD` named.
    last_command: Option<String>,
    cmdstreams: u32,
    decoded: u32,
}

impl<W: Write> TraceState<W> {
    fn device(&mut self, id_text: String, gpu: Option<TraceGpu>) {
        if self.gpu.is_some() {
            return;
        }
        self.decoder.print(&id_text);
        let Some(gpu) = gpu else {
            self.decoder.notes.push(Note {
                cmdstream: None,
                gpu_address: None,
                file_offset: None,
                message: format!("{id_text}: not a GPU the decoder knows"),
            });
            return;
        };
        match &gpu {
            TraceGpu::Supported { chip, .. } => self.decoder.restart(*chip),
            TraceGpu::Unsupported { name } => self.decoder.notes.push(Note {
                cmdstream: None,
                gpu_address: None,
                file_offset: None,
                message: format!(
                    "{name}: the register database covers a6xx and a7xx only; \
                     command streams are shown in hex, not decoded"
                ),
            }),
        }
        self.gpu = Some(gpu);
    }

    fn cmdstream(&mut self, iova: u64, dwords: u32, offset: u64) {
        let number = self.cmdstreams;
        self.cmdstreams += 1;
        self.new_submit = true;
        if !self.decoder.options.selects(number) {
            return;
        }
        if self.decoder.options.summary {
            let mut line = format!("cmdstream[{number}]: {dwords} dwords at {iova:#x}");
            if let Some(command) = &self.last_command {
                line.push_str(&format!(" (cmd: {command})"));
            }
            self.decoder.out.line(&line);
        }
        self.decoder
            .print("############################################################");
        self.decoder
            .print(&format!("cmdstream[{number}]: {dwords} dwords"));
        if !self.skip_process {
            self.decoded += 1;
            match &self.gpu {
                Some(TraceGpu::Supported { .. }) => {
                    self.decoder
                        .decode_cmdstream(&self.buffers, number, iova, dwords);
                }
                Some(TraceGpu::Unsupported { .. }) => {
                    if let Some(buffer) = self.buffers.buffer_at(iova) {
                        if !self.decoder.quiet() {
                            let words = buffer.dwords(iova, dwords as usize);
                            self.decoder.out.hex_dump(iova, &words, 0);
                        }
                    }
                }
                None => self.decoder.notes.push(Note {
                    cmdstream: Some(number),
                    gpu_address: Some(iova),
                    file_offset: Some(offset),
                    message: "no RD_GPU_ID or RD_CHIP_ID came before this command stream; \
                              not decoded"
                        .to_string(),
                }),
            }
        }
        self.decoder
            .print("############################################################");
        // freedreno's decoder prints this count, which it never increments.
        self.decoder.print("vertices: 0");
    }
}

/// Decodes the `.rd` or `.rd.gz` read from `input` into `out`.
pub fn decode_trace<R: Read, W: Write>(
    input: R,
    options: DecodeOptions,
    out: W,
) -> Result<TraceDecode<W>, DecodeError> {
    let mut reader = SectionReader::new(input).map_err(DecodeError::Open)?;
    let mut state = TraceState {
        decoder: Decoder::new(Chip::A6xx, options, out),
        gpu: None,
        buffers: CapturedBuffers::new(),
        address: None,
        new_submit: false,
        skip_process: false,
        last_command: None,
        cmdstreams: 0,
        decoded: 0,
    };
    let read_error = loop {
        let record = match reader.next_record() {
            Ok(Some(record)) => record,
            Ok(None) => break None,
            Err(e) => break Some(e),
        };
        match &record.section {
            Section::Test(text) => {
                let line = format!("test: {}", text_until_nul(text));
                state.decoder.print(&line);
            }
            Section::Cmd(text) => {
                let command = text_until_nul(text).into_owned();
                state.decoder.print(&format!("cmd: {command}"));
                state.skip_process = skips_process(&command, &state.decoder.options);
                state.last_command = Some(command);
            }
            Section::VertShader(text) => {
                let line = format!("vertex shader:\n{}", text_until_nul(text));
                state.decoder.print(&line);
            }
            Section::FragShader(text) => {
                let line = format!("fragment shader:\n{}", text_until_nul(text));
                state.decoder.print(&line);
            }
            Section::GpuAddr(address) => {
                if state.new_submit {
                    state.buffers.clear();
                    state.decoder.forget_walked();
                    state.new_submit = false;
                }
                state.address = Some(address.iova());
            }
            Section::BufferContents(bytes) => {
                // The reader checks every contents section has its address.
                if let Some(iova) = state.address {
                    state
                        .buffers
                        .add(iova, bytes.clone(), Some(record.offset + 8));
                }
            }
            Section::CmdstreamAddr(address) => {
                state.cmdstream(address.iova(), address.len(), record.offset);
            }
            Section::GpuId(id) if *id != 0 => {
                state.device(format!("gpu_id: {id}"), gpu_from_id(*id));
            }
            Section::ChipId(id) => {
                state.device(format!("chip_id: {id:#x}"), gpu_from_chip_id(*id));
            }
            Section::Unknown { section_type, .. } => state.decoder.notes.push(Note {
                cmdstream: None,
                gpu_address: None,
                file_offset: Some(record.offset),
                message: format!("skipped a section of {section_type}"),
            }),
            _ => {}
        }
    };
    let TraceState {
        decoder,
        gpu,
        cmdstreams,
        decoded,
        ..
    } = state;
    let notes = decoder.notes.clone();
    let draws = decoder.draws.clone();
    let output = decoder.finish().map_err(DecodeError::Output)?;
    Ok(TraceDecode {
        output,
        gpu,
        cmdstreams,
        decoded,
        notes,
        draws,
        read_error,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gpus_by_id_and_generation() {
        assert_eq!(
            gpu_from_id(630),
            Some(TraceGpu::Supported {
                chip: Chip::A6xx,
                name: "a630".into()
            })
        );
        assert!(matches!(
            gpu_from_id(605),
            Some(TraceGpu::Supported {
                chip: Chip::A6xx,
                ..
            })
        ));
        assert_eq!(
            gpu_from_id(540),
            Some(TraceGpu::Unsupported {
                name: "a540".into()
            })
        );
        assert_eq!(gpu_from_id(99), None);
        assert!(matches!(
            gpu_from_chip_id(0x43050a01),
            Some(TraceGpu::Supported {
                chip: Chip::A7xx,
                ..
            })
        ));
        assert!(matches!(
            gpu_from_chip_id(0x0703_0002),
            Some(TraceGpu::Supported {
                chip: Chip::A7xx,
                ..
            })
        ));
    }

    #[test]
    fn compositor_submits_are_skipped_unless_asked_for() {
        let mut options = DecodeOptions::default();
        assert!(skips_process("chrome/12: fence=3", &options));
        assert!(skips_process("Xorg/1: fence=1", &options));
        assert!(!skips_process("deqp-vk/74711: fence=247337", &options));
        options.show_compositor = true;
        assert!(!skips_process("chrome/12: fence=3", &options));
        options.exe = Some("deqp".into());
        assert!(skips_process("chrome/12: fence=3", &options));
        assert!(!skips_process("deqp-vk/74711: fence=247337", &options));
    }
}
