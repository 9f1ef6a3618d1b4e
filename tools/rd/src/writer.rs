//! Writing a trace: the sections a reader returned, byte for byte, or new
//! ones as a driver submits (`PARSNIP_RD_DUMP`).

use std::io::{self, Write};

use flate2::write::GzEncoder;

use crate::contents_pairing::ContentsPairing;
use crate::error::{Error, ErrorKind};
use crate::section::{Address, Record, Section, SectionType, WrBuffer};

/// How the output is stored; the caller chooses (`.rd` or `.rd.gz`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    None,
    /// gzip at the given level (0-9), as freedreno writes `.rd.gz`.
    Gzip(u32),
}

enum Sink<W: Write> {
    Plain(W),
    /// A gzip member is open.
    GzipMember(GzEncoder<W>),
    /// Between gzip members: the next write opens one.
    GzipIdle(W),
    /// A gzip member failed to finish and took the output with it.
    Broken,
}

/// Writes sections to a `.rd` or `.rd.gz`.
///
/// It refuses what the reader would refuse (a wrong payload size, contents
/// that do not match their `RD_GPUADDR`), so whatever it writes reads back.
pub struct Writer<W: Write> {
    sink: Sink<W>,
    level: flate2::Compression,
    offset: u64,
    pairing: ContentsPairing,
}

impl<W: Write> Writer<W> {
    pub fn new(output: W, compression: Compression) -> Self {
        let (sink, level) = match compression {
            Compression::None => (Sink::Plain(output), flate2::Compression::default()),
            Compression::Gzip(level) => (
                Sink::GzipIdle(output),
                flate2::Compression::new(level.min(9)),
            ),
        };
        Self {
            sink,
            level,
            offset: 0,
            pairing: ContentsPairing::default(),
        }
    }

    /// Uncompressed bytes written so far: the offset the next section gets.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Writes a section as it was read, with the padding before it.
    pub fn write_record(&mut self, record: &Record) -> Result<(), Error> {
        self.write_padding(record.padding)?;
        self.write_section(&record.section)
    }

    /// Writes `pairs` padding pairs (`0xffffffff, 0xffffffff`).
    pub fn write_padding(&mut self, pairs: u64) -> Result<(), Error> {
        for _ in 0..pairs {
            self.put(&[0xff; 8], "writing padding")?;
        }
        Ok(())
    }

    pub fn write_section(&mut self, section: &Section) -> Result<(), Error> {
        self.write_payload(section.section_type(), &section.payload())
    }

    /// `RD_GPU_ID`, such as 630.
    pub fn gpu_id(&mut self, gpu_id: u32) -> Result<(), Error> {
        self.write_section(&Section::GpuId(gpu_id))
    }

    /// `RD_CHIP_ID`, such as 0x07030001.
    pub fn chip_id(&mut self, chip_id: u64) -> Result<(), Error> {
        self.write_section(&Section::ChipId(chip_id))
    }

    /// `RD_CMD` with `text` and a NUL, as freedreno's writers put at the
    /// start of each submit.
    pub fn cmd(&mut self, text: &str) -> Result<(), Error> {
        let mut payload = Vec::with_capacity(text.len() + 1);
        payload.extend_from_slice(text.as_bytes());
        payload.push(0);
        self.write_payload(SectionType::CMD, &payload)
    }

    /// A captured buffer: `RD_GPUADDR` (12-byte form) then
    /// `RD_BUFFER_CONTENTS`, written straight from `contents`.
    pub fn buffer(&mut self, iova: u64, contents: &[u8]) -> Result<(), Error> {
        let size = u32::try_from(contents.len()).map_err(|_| {
            Error::new(
                self.offset,
                ErrorKind::PayloadTooLarge {
                    section: SectionType::BUFFER_CONTENTS,
                    len: contents.len() as u64,
                },
            )
        })?;
        self.write_section(&Section::GpuAddr(Address::new(iova, size)))?;
        self.write_payload(SectionType::BUFFER_CONTENTS, contents)
    }

    /// `RD_CMDSTREAM_ADDR`: a submitted IB of `dwords` dwords at `iova`.
    pub fn cmdstream_addr(&mut self, iova: u64, dwords: u32) -> Result<(), Error> {
        self.write_section(&Section::CmdstreamAddr(Address::new(iova, dwords)))
    }

    /// `RD_WRBUFFER`: a replay writes `size` bytes at `iova` to the file
    /// `name` after the submit, first filling them with 0xdeadbeef if `clear`.
    pub fn wrbuffer(&mut self, iova: u64, size: u64, clear: bool, name: &str) -> Result<(), Error> {
        let mut name = name.as_bytes().to_vec();
        name.push(0);
        self.write_section(&Section::WrBuffer(WrBuffer {
            iova,
            size,
            clear: clear.into(),
            name,
        }))
    }

    /// Makes everything written so far readable even if the process dies
    /// before [`finish`](Self::finish): ends the gzip member (the next write
    /// starts another, as freedreno's combined dumps do after each submit)
    /// and flushes the output.
    pub fn checkpoint(&mut self) -> Result<(), Error> {
        let offset = self.offset;
        match std::mem::replace(&mut self.sink, Sink::Broken) {
            Sink::GzipMember(encoder) => {
                let mut output = encoder
                    .finish()
                    .map_err(|e| Error::io(offset, "finishing a gzip member", e))?;
                let flushed = output.flush();
                self.sink = Sink::GzipIdle(output);
                flushed.map_err(|e| Error::io(offset, "flushing the trace", e))
            }
            Sink::Plain(mut output) => {
                let flushed = output.flush();
                self.sink = Sink::Plain(output);
                flushed.map_err(|e| Error::io(offset, "flushing the trace", e))
            }
            idle @ Sink::GzipIdle(_) => {
                self.sink = idle;
                Ok(())
            }
            Sink::Broken => Err(broken(offset)),
        }
    }

    /// Finishes the output (the last gzip member included) and returns it.
    pub fn finish(mut self) -> Result<W, Error> {
        self.checkpoint()?;
        match std::mem::replace(&mut self.sink, Sink::Broken) {
            Sink::Plain(output) | Sink::GzipIdle(output) => Ok(output),
            Sink::GzipMember(_) | Sink::Broken => Err(broken(self.offset)),
        }
    }

    fn write_payload(&mut self, section_type: SectionType, payload: &[u8]) -> Result<(), Error> {
        let at_header = |kind| Error::new(self.offset, kind);
        let len = u32::try_from(payload.len()).map_err(|_| {
            at_header(ErrorKind::PayloadTooLarge {
                section: section_type,
                len: payload.len() as u64,
            })
        })?;
        Section::check_size(section_type, len.into()).map_err(at_header)?;
        if section_type == SectionType::BUFFER_CONTENTS {
            self.pairing.contents(len.into()).map_err(at_header)?;
        }
        if section_type == SectionType::GPUADDR {
            // The size check above leaves 8 or 12 bytes: the size is the
            // second u32 in both forms.
            let size = payload
                .get(4..8)
                .and_then(|b| b.try_into().ok())
                .map_or(0, u32::from_le_bytes);
            self.pairing.address(self.offset, size);
        }
        let doing = || format!("writing {section_type}");
        let mut header = [0; 8];
        header[..4].copy_from_slice(&section_type.0.to_le_bytes());
        header[4..].copy_from_slice(&len.to_le_bytes());
        self.put(&header, &doing())?;
        self.put(payload, &doing())
    }

    fn put(&mut self, bytes: &[u8], doing: &str) -> Result<(), Error> {
        let offset = self.offset;
        if let Sink::GzipIdle(_) = self.sink {
            if let Sink::GzipIdle(output) = std::mem::replace(&mut self.sink, Sink::Broken) {
                self.sink = Sink::GzipMember(GzEncoder::new(output, self.level));
            }
        }
        let written = match &mut self.sink {
            Sink::Plain(output) => output.write_all(bytes),
            Sink::GzipMember(encoder) => encoder.write_all(bytes),
            Sink::GzipIdle(_) | Sink::Broken => return Err(broken(offset)),
        };
        written.map_err(|e| Error::io(offset, doing, e))?;
        self.offset += bytes.len() as u64;
        Ok(())
    }
}

fn broken(offset: u64) -> Error {
    Error::io(
        offset,
        "writing the trace",
        io::Error::other("the output was lost when an earlier gzip member failed to finish"),
    )
}
