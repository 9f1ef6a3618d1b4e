//! Reading a trace section by section from any `Read`.
//!
//! Only the section being read is held in memory, so a large trace can be
//! streamed. A `.rd.gz` is recognised by the gzip magic at its start and
//! decompressed on the fly, across all its members (freedreno's "combine"
//! mode finishes a member after every submit). A `.rd` has no header of its
//! own and starts with a section type, a small number, so the two cannot be
//! confused.

use std::fs::File;
use std::io::{self, BufReader, Chain, Cursor, Read};
use std::path::Path;

use flate2::read::MultiGzDecoder;

use crate::contents_pairing::ContentsPairing;
use crate::error::{Error, ErrorKind};
use crate::section::{Record, Section, SectionType};

const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];
const PADDING_PAIR: [u8; 8] = [0xff; 8];

/// Payloads are read in pieces of at most this many bytes more than they
/// already hold, so a corrupted length costs memory only for what the file
/// really contains.
const FIRST_READ: usize = 64 << 10;

type Prefixed<R> = Chain<Cursor<Vec<u8>>, R>;

enum Input<R: Read> {
    Plain(BufReader<Prefixed<R>>),
    Gzip(MultiGzDecoder<Prefixed<R>>),
}

impl<R: Read> Read for Input<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Self::Plain(input) => input.read(buf),
            Self::Gzip(input) => input.read(buf),
        }
    }
}

/// Reads the sections of a `.rd` or `.rd.gz` one at a time.
///
/// Beyond splitting the stream, it checks what a single pass can: payload
/// sizes of the fixed-size sections and that each `RD_BUFFER_CONTENTS` is as
/// long as its `RD_GPUADDR` declared. After the first error it yields
/// nothing more.
pub struct SectionReader<R: Read> {
    input: Input<R>,
    offset: u64,
    pairing: ContentsPairing,
    trailing_padding: u64,
    gzip: bool,
    finished: bool,
}

impl SectionReader<File> {
    pub fn open(path: impl AsRef<Path>) -> Result<Self, Error> {
        let path = path.as_ref();
        let file =
            File::open(path).map_err(|e| Error::io(0, format!("opening {}", path.display()), e))?;
        Self::new(file)
    }
}

impl<R: Read> SectionReader<R> {
    /// Starts reading `input`, decompressing it if it starts with the gzip
    /// magic.
    pub fn new(mut input: R) -> Result<Self, Error> {
        let mut magic = [0; 2];
        let got = read_full(&mut input, &mut magic)
            .map_err(|e| Error::io(0, "reading the start of the trace", e))?;
        let gzip = got == magic.len() && magic == GZIP_MAGIC;
        let input = Cursor::new(magic[..got].to_vec()).chain(input);
        Ok(Self {
            input: if gzip {
                Input::Gzip(MultiGzDecoder::new(input))
            } else {
                Input::Plain(BufReader::new(input))
            },
            offset: 0,
            pairing: ContentsPairing::default(),
            trailing_padding: 0,
            gzip,
            finished: false,
        })
    }

    /// Whether the input is gzip-compressed.
    pub fn is_gzip(&self) -> bool {
        self.gzip
    }

    /// Uncompressed bytes consumed so far; at the end, the stream's length.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Padding pairs after the last section, known once the reader has
    /// returned `None`.
    pub fn trailing_padding(&self) -> u64 {
        self.trailing_padding
    }

    /// The next section, `None` at the end of the stream.
    pub fn next_record(&mut self) -> Result<Option<Record>, Error> {
        if self.finished {
            return Ok(None);
        }
        let result = self.read_record();
        if !matches!(result, Ok(Some(_))) {
            self.finished = true;
        }
        result
    }

    fn read_record(&mut self) -> Result<Option<Record>, Error> {
        let mut padding = 0;
        loop {
            let start = self.offset;
            let mut header = [0; 8];
            let got = read_full(&mut self.input, &mut header)
                .map_err(|e| Error::io(start, "reading a section header", e))?;
            if got == 0 {
                self.trailing_padding = padding;
                return Ok(None);
            }
            if got < header.len() {
                return Err(Error::new(
                    start,
                    ErrorKind::TruncatedHeader {
                        available: got as u64,
                    },
                ));
            }
            self.offset += header.len() as u64;
            if header == PADDING_PAIR {
                padding += 1;
                continue;
            }

            let [t0, t1, t2, t3, l0, l1, l2, l3] = header;
            let section_type = SectionType(u32::from_le_bytes([t0, t1, t2, t3]));
            let len = u32::from_le_bytes([l0, l1, l2, l3]);
            let at_header = |kind| Error::new(start, kind);
            Section::check_size(section_type, len.into()).map_err(at_header)?;
            if section_type == SectionType::BUFFER_CONTENTS {
                self.pairing.contents(len.into()).map_err(at_header)?;
            }
            let payload = self.read_payload(start, section_type, len)?;
            self.offset += u64::from(len);
            let section = Section::decode(section_type, payload).map_err(at_header)?;
            if let Section::GpuAddr(address) = &section {
                self.pairing.address(start, address.len());
            }
            return Ok(Some(Record {
                offset: start,
                padding,
                section,
            }));
        }
    }

    fn read_payload(
        &mut self,
        start: u64,
        section_type: SectionType,
        len: u32,
    ) -> Result<Vec<u8>, Error> {
        let len = len as usize;
        let mut payload = Vec::new();
        let mut filled = 0;
        while filled < len {
            if filled == payload.len() {
                let grow = (len - filled).min(filled.max(FIRST_READ));
                payload.reserve_exact(grow);
                payload.resize(filled + grow, 0);
            }
            match self.input.read(&mut payload[filled..]) {
                Ok(0) => {
                    return Err(Error::new(
                        start,
                        ErrorKind::TruncatedPayload {
                            section: section_type,
                            declared: len as u64,
                            available: filled as u64,
                        },
                    ))
                }
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    return Err(Error::io(
                        start,
                        format!("reading the {len}-byte payload of {section_type}"),
                        e,
                    ))
                }
            }
        }
        Ok(payload)
    }
}

impl<R: Read> Iterator for SectionReader<R> {
    type Item = Result<Record, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_record().transpose()
    }
}

/// Fills `buf` unless the input ends first; returns how much it got.
fn read_full(input: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match input.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}
