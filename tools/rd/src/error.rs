//! What goes wrong reading or writing a trace, and where.

use std::fmt;
use std::io;

use crate::section::SectionType;

/// An error at a place in a trace. `offset` is a byte offset in the
/// uncompressed `.rd` stream (for a `.rd.gz`, in what it decompresses to): the
/// header of the section that is wrong, or where a header was expected.
#[derive(Debug)]
pub struct Error {
    pub offset: u64,
    pub kind: ErrorKind,
}

#[derive(Debug)]
pub enum ErrorKind {
    /// The file ends inside a section header.
    TruncatedHeader { available: u64 },
    /// A header declares more payload than the file holds.
    TruncatedPayload {
        section: SectionType,
        declared: u64,
        available: u64,
    },
    /// A section whose type fixes its payload size declares another size.
    PayloadSize {
        section: SectionType,
        len: u64,
        expected: &'static str,
    },
    /// An `RD_BUFFER_CONTENTS` with no `RD_GPUADDR` before it.
    ContentsWithoutAddress,
    /// An `RD_BUFFER_CONTENTS` whose length differs from the size its
    /// `RD_GPUADDR` declared.
    ContentsSize {
        len: u64,
        declared: u32,
        address_offset: u64,
    },
    /// A payload too large for a section's 32-bit length (writing only).
    PayloadTooLarge { section: SectionType, len: u64 },
    /// Reading, decompressing or writing failed.
    Io { doing: String, source: io::Error },
}

impl Error {
    pub(crate) fn new(offset: u64, kind: ErrorKind) -> Self {
        Self { offset, kind }
    }

    pub(crate) fn io(offset: u64, doing: impl Into<String>, source: io::Error) -> Self {
        Self::new(
            offset,
            ErrorKind::Io {
                doing: doing.into(),
                source,
            },
        )
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at offset {:#x}: {}", self.offset, self.kind)
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TruncatedHeader { available } => write!(
                f,
                "truncated section header: the file ends {available} bytes into the 8-byte header"
            ),
            Self::TruncatedPayload {
                section,
                declared,
                available,
            } => write!(
                f,
                "{section} declares {declared} bytes of payload but the file ends after {available}"
            ),
            Self::PayloadSize {
                section,
                len,
                expected,
            } => write!(
                f,
                "{section} has a {len}-byte payload; its payload is {expected} bytes"
            ),
            Self::ContentsWithoutAddress => {
                write!(f, "RD_BUFFER_CONTENTS with no RD_GPUADDR before it")
            }
            Self::ContentsSize {
                len,
                declared,
                address_offset,
            } => write!(
                f,
                "RD_BUFFER_CONTENTS holds {len} bytes but the RD_GPUADDR at offset \
                 {address_offset:#x} declared {declared}"
            ),
            Self::PayloadTooLarge { section, len } => write!(
                f,
                "{section} payload of {len} bytes does not fit a section's 32-bit length"
            ),
            Self::Io { doing, source } => write!(f, "{doing}: {source}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            ErrorKind::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
