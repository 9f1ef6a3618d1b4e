//! The sections of an `.rd` file and their payloads.
//!
//! Section numbers and payload layouts are freedreno's (`redump.h` in Mesa's
//! `src/freedreno/common`, described in the reference README). Every section
//! keeps the exact form it was read in (an 8- or 12-byte address, text with
//! whatever follows its NUL), so writing it back gives the same bytes.

use std::borrow::Cow;
use std::fmt;

use crate::error::ErrorKind;

/// A section type number, as it appears in a section header.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SectionType(pub u32);

impl SectionType {
    pub const NONE: Self = Self(0);
    pub const TEST: Self = Self(1);
    pub const CMD: Self = Self(2);
    pub const GPUADDR: Self = Self(3);
    pub const CONTEXT: Self = Self(4);
    pub const CMDSTREAM: Self = Self(5);
    pub const CMDSTREAM_ADDR: Self = Self(6);
    pub const PARAM: Self = Self(7);
    pub const FLUSH: Self = Self(8);
    pub const PROGRAM: Self = Self(9);
    pub const VERT_SHADER: Self = Self(10);
    pub const FRAG_SHADER: Self = Self(11);
    pub const BUFFER_CONTENTS: Self = Self(12);
    pub const GPU_ID: Self = Self(13);
    pub const CHIP_ID: Self = Self(14);
    pub const SHADER_LOG_BUFFER: Self = Self(15);
    pub const CP_LOG_BUFFER: Self = Self(16);
    pub const WRBUFFER: Self = Self(17);

    /// freedreno's name for the type (`RD_GPUADDR`), or `None` for a number
    /// no known writer uses.
    pub fn name(self) -> Option<&'static str> {
        const NAMES: [&str; 18] = [
            "RD_NONE",
            "RD_TEST",
            "RD_CMD",
            "RD_GPUADDR",
            "RD_CONTEXT",
            "RD_CMDSTREAM",
            "RD_CMDSTREAM_ADDR",
            "RD_PARAM",
            "RD_FLUSH",
            "RD_PROGRAM",
            "RD_VERT_SHADER",
            "RD_FRAG_SHADER",
            "RD_BUFFER_CONTENTS",
            "RD_GPU_ID",
            "RD_CHIP_ID",
            "RD_SHADER_LOG_BUFFER",
            "RD_CP_LOG_BUFFER",
            "RD_WRBUFFER",
        ];
        NAMES.get(self.0 as usize).copied()
    }
}

impl fmt::Display for SectionType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(name) => f.write_str(name),
            None => write!(f, "unknown section type {}", self.0),
        }
    }
}

/// A GPU address and a length, the payload of `RD_GPUADDR` (length in bytes),
/// `RD_CMDSTREAM_ADDR` (length in dwords) and the two log buffer sections.
///
/// Old traces (a3xx/a4xx kernels) write it in 8 bytes, `iova_lo, len`; newer
/// ones in 12, `iova_lo, len, iova_hi`. The form is kept so the section is
/// written back as it was read; a short address cannot hold an iova above
/// 4 GiB, so the constructors make that state impossible.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Address {
    iova: u64,
    len: u32,
    short: bool,
}

impl Address {
    /// The 12-byte form, which every current writer uses.
    pub fn new(iova: u64, len: u32) -> Self {
        Self {
            iova,
            len,
            short: false,
        }
    }

    /// The 8-byte form of old traces, with a 32-bit iova.
    pub fn short(iova: u32, len: u32) -> Self {
        Self {
            iova: iova.into(),
            len,
            short: true,
        }
    }

    pub fn iova(&self) -> u64 {
        self.iova
    }

    /// Bytes for `RD_GPUADDR` and the log buffers, dwords for
    /// `RD_CMDSTREAM_ADDR`.
    pub fn len(&self) -> u32 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether the address is in the 8-byte form.
    pub fn is_short(&self) -> bool {
        self.short
    }

    fn decode(payload: &[u8]) -> Option<Self> {
        let lo = le_u32(payload, 0)?;
        let len = le_u32(payload, 4)?;
        match payload.len() {
            8 => Some(Self::short(lo, len)),
            12 => {
                let hi = le_u32(payload, 8)?;
                Some(Self::new(u64::from(hi) << 32 | u64::from(lo), len))
            }
            _ => None,
        }
    }

    fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(12);
        out.extend_from_slice(&(self.iova as u32).to_le_bytes());
        out.extend_from_slice(&self.len.to_le_bytes());
        if !self.short {
            out.extend_from_slice(&((self.iova >> 32) as u32).to_le_bytes());
        }
        out
    }
}

/// The payload of a legacy `RD_PARAM`: `param_type, value, bitlen`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Param {
    pub kind: u32,
    pub value: u32,
    pub bitlen: u32,
}

impl Param {
    /// freedreno's name for the parameter type (`RD_PARAM_SURFACE_WIDTH`...).
    pub fn kind_name(&self) -> Option<&'static str> {
        const NAMES: [&str; 10] = [
            "RD_PARAM_SURFACE_WIDTH",
            "RD_PARAM_SURFACE_HEIGHT",
            "RD_PARAM_SURFACE_PITCH",
            "RD_PARAM_COLOR",
            "RD_PARAM_BLIT_X",
            "RD_PARAM_BLIT_Y",
            "RD_PARAM_BLIT_WIDTH",
            "RD_PARAM_BLIT_HEIGHT",
            "RD_PARAM_BLIT_X2",
            "RD_PARAM_BLIT_Y2",
        ];
        NAMES.get(self.kind as usize).copied()
    }
}

/// The payload of `RD_WRBUFFER`: a range that a replay writes out to a file
/// once the submit has run, after first filling it with 0xdeadbeef when
/// `clear` is non-zero.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct WrBuffer {
    pub iova: u64,
    pub size: u64,
    /// Kept as the raw u64 so the section writes back unchanged.
    pub clear: u64,
    /// The bytes after the three u64s: the file name and its NUL.
    pub name: Vec<u8>,
}

impl WrBuffer {
    /// The file name, up to its NUL.
    pub fn name_text(&self) -> Cow<'_, str> {
        text_until_nul(&self.name)
    }

    pub fn clears(&self) -> bool {
        self.clear != 0
    }
}

/// One section of an `.rd` file, with its payload decoded where the format
/// gives it a structure and kept as raw bytes where it does not.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Section {
    /// `RD_NONE` (0): unused by every known writer; kept raw.
    Unused(Vec<u8>),
    /// `RD_TEST`: a test name, NUL-padded.
    Test(Vec<u8>),
    /// `RD_CMD`: the process and fence of a submit, or (blob captures) an API
    /// call log line. Not always NUL-terminated; may carry junk after a NUL.
    Cmd(Vec<u8>),
    /// `RD_GPUADDR`: declares the buffer that the next `RD_BUFFER_CONTENTS`
    /// holds (length in bytes).
    GpuAddr(Address),
    /// `RD_CONTEXT`: a legacy raw dump.
    Context(Vec<u8>),
    /// `RD_CMDSTREAM`: a legacy raw dump.
    Cmdstream(Vec<u8>),
    /// `RD_CMDSTREAM_ADDR`: a submitted IB (length in dwords), to be read from
    /// the buffers dumped for its submit.
    CmdstreamAddr(Address),
    /// `RD_PARAM`: legacy blit/surface parameter.
    Param(Param),
    /// `RD_FLUSH`: empty; clears earlier params.
    Flush,
    /// `RD_PROGRAM`: a raw shader program binary from the blob.
    Program(Vec<u8>),
    /// `RD_VERT_SHADER`: shader source text.
    VertShader(Vec<u8>),
    /// `RD_FRAG_SHADER`: shader source text.
    FragShader(Vec<u8>),
    /// `RD_BUFFER_CONTENTS`: the bytes of the buffer the last `RD_GPUADDR`
    /// declared; its length equals the declared size.
    BufferContents(Vec<u8>),
    /// `RD_GPU_ID`: such as 630. Zero means "not known" and is ignored.
    GpuId(u32),
    /// `RD_CHIP_ID`: such as 0x07030001, written by current Mesa instead of
    /// `RD_GPU_ID`.
    ChipId(u64),
    /// `RD_SHADER_LOG_BUFFER`: where the shader log buffer is (used by replay).
    ShaderLogBuffer(Address),
    /// `RD_CP_LOG_BUFFER`: where the CP log buffer is.
    CpLogBuffer(Address),
    /// `RD_WRBUFFER`: a range a replay writes out to a file.
    WrBuffer(WrBuffer),
    /// A type no known writer uses, kept so it writes back and a reader can
    /// report it.
    Unknown {
        section_type: SectionType,
        payload: Vec<u8>,
    },
}

impl Section {
    /// Checks a declared payload size against what the type allows, before
    /// the payload is read: a corrupted length is reported at its header
    /// instead of sending the reader off to read gigabytes.
    pub fn check_size(section_type: SectionType, len: u64) -> Result<(), ErrorKind> {
        let (fits, expected) = match section_type {
            SectionType::GPUADDR
            | SectionType::CMDSTREAM_ADDR
            | SectionType::SHADER_LOG_BUFFER
            | SectionType::CP_LOG_BUFFER => (len == 8 || len == 12, "8 or 12"),
            SectionType::PARAM => (len == 12, "12"),
            SectionType::FLUSH => (len == 0, "0"),
            SectionType::GPU_ID => (len == 4, "4"),
            SectionType::CHIP_ID => (len == 8, "8"),
            SectionType::WRBUFFER => (len >= 24, "at least 24"),
            _ => (true, ""),
        };
        if fits {
            Ok(())
        } else {
            Err(ErrorKind::PayloadSize {
                section: section_type,
                len,
                expected,
            })
        }
    }

    /// Decodes a payload read under a header of type `section_type`.
    pub fn decode(section_type: SectionType, payload: Vec<u8>) -> Result<Self, ErrorKind> {
        let len = payload.len() as u64;
        Self::check_size(section_type, len)?;
        // After the size check every field read below is in bounds; the
        // `Option`s only keep that from being a panic if it ever were not.
        let address = || Address::decode(&payload);
        let decoded = match section_type {
            SectionType::NONE => Some(Self::Unused(payload)),
            SectionType::TEST => Some(Self::Test(payload)),
            SectionType::CMD => Some(Self::Cmd(payload)),
            SectionType::GPUADDR => address().map(Self::GpuAddr),
            SectionType::CONTEXT => Some(Self::Context(payload)),
            SectionType::CMDSTREAM => Some(Self::Cmdstream(payload)),
            SectionType::CMDSTREAM_ADDR => address().map(Self::CmdstreamAddr),
            SectionType::PARAM => le_u32s::<3>(&payload).map(|[kind, value, bitlen]| {
                Self::Param(Param {
                    kind,
                    value,
                    bitlen,
                })
            }),
            SectionType::FLUSH => Some(Self::Flush),
            SectionType::PROGRAM => Some(Self::Program(payload)),
            SectionType::VERT_SHADER => Some(Self::VertShader(payload)),
            SectionType::FRAG_SHADER => Some(Self::FragShader(payload)),
            SectionType::BUFFER_CONTENTS => Some(Self::BufferContents(payload)),
            SectionType::GPU_ID => le_u32(&payload, 0).map(Self::GpuId),
            SectionType::CHIP_ID => le_u64(&payload, 0).map(Self::ChipId),
            SectionType::SHADER_LOG_BUFFER => address().map(Self::ShaderLogBuffer),
            SectionType::CP_LOG_BUFFER => address().map(Self::CpLogBuffer),
            SectionType::WRBUFFER => match le_u64s::<3>(&payload) {
                Some([iova, size, clear]) => {
                    let mut name = payload;
                    name.drain(..24);
                    Some(Self::WrBuffer(WrBuffer {
                        iova,
                        size,
                        clear,
                        name,
                    }))
                }
                None => None,
            },
            section_type => Some(Self::Unknown {
                section_type,
                payload,
            }),
        };
        decoded.ok_or(ErrorKind::PayloadSize {
            section: section_type,
            len,
            expected: "a well-formed payload",
        })
    }

    pub fn section_type(&self) -> SectionType {
        match self {
            Self::Unused(_) => SectionType::NONE,
            Self::Test(_) => SectionType::TEST,
            Self::Cmd(_) => SectionType::CMD,
            Self::GpuAddr(_) => SectionType::GPUADDR,
            Self::Context(_) => SectionType::CONTEXT,
            Self::Cmdstream(_) => SectionType::CMDSTREAM,
            Self::CmdstreamAddr(_) => SectionType::CMDSTREAM_ADDR,
            Self::Param(_) => SectionType::PARAM,
            Self::Flush => SectionType::FLUSH,
            Self::Program(_) => SectionType::PROGRAM,
            Self::VertShader(_) => SectionType::VERT_SHADER,
            Self::FragShader(_) => SectionType::FRAG_SHADER,
            Self::BufferContents(_) => SectionType::BUFFER_CONTENTS,
            Self::GpuId(_) => SectionType::GPU_ID,
            Self::ChipId(_) => SectionType::CHIP_ID,
            Self::ShaderLogBuffer(_) => SectionType::SHADER_LOG_BUFFER,
            Self::CpLogBuffer(_) => SectionType::CP_LOG_BUFFER,
            Self::WrBuffer(_) => SectionType::WRBUFFER,
            Self::Unknown { section_type, .. } => *section_type,
        }
    }

    /// The payload bytes as they are written to a file.
    pub fn payload(&self) -> Cow<'_, [u8]> {
        match self {
            Self::Unused(raw)
            | Self::Test(raw)
            | Self::Cmd(raw)
            | Self::Context(raw)
            | Self::Cmdstream(raw)
            | Self::Program(raw)
            | Self::VertShader(raw)
            | Self::FragShader(raw)
            | Self::BufferContents(raw)
            | Self::Unknown { payload: raw, .. } => Cow::Borrowed(raw),
            Self::GpuAddr(address)
            | Self::CmdstreamAddr(address)
            | Self::ShaderLogBuffer(address)
            | Self::CpLogBuffer(address) => Cow::Owned(address.encode()),
            Self::Param(param) => Cow::Owned(
                [param.kind, param.value, param.bitlen]
                    .iter()
                    .flat_map(|v| v.to_le_bytes())
                    .collect(),
            ),
            Self::Flush => Cow::Borrowed(&[]),
            Self::GpuId(id) => Cow::Owned(id.to_le_bytes().to_vec()),
            Self::ChipId(id) => Cow::Owned(id.to_le_bytes().to_vec()),
            Self::WrBuffer(wrbuffer) => {
                let mut out = Vec::with_capacity(24 + wrbuffer.name.len());
                for value in [wrbuffer.iova, wrbuffer.size, wrbuffer.clear] {
                    out.extend_from_slice(&value.to_le_bytes());
                }
                out.extend_from_slice(&wrbuffer.name);
                Cow::Owned(out)
            }
        }
    }

    /// The text of a text section (`RD_TEST`, `RD_CMD`, shader sources) up
    /// to its first NUL, as freedreno's tools print it; `None` for others.
    pub fn text(&self) -> Option<Cow<'_, str>> {
        match self {
            Self::Test(raw) | Self::Cmd(raw) | Self::VertShader(raw) | Self::FragShader(raw) => {
                Some(text_until_nul(raw))
            }
            _ => None,
        }
    }
}

/// A section as it sits in a file: where its header starts, and how many
/// 8-byte padding pairs (`0xffffffff, 0xffffffff`, which the blob writes
/// before every section) came before it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Record {
    /// Byte offset of the section header in the uncompressed stream.
    pub offset: u64,
    pub padding: u64,
    pub section: Section,
}

/// Bytes up to the first NUL, as text (invalid UTF-8 replaced).
pub fn text_until_nul(raw: &[u8]) -> Cow<'_, str> {
    let end = raw.iter().position(|&b| b == 0).unwrap_or(raw.len());
    String::from_utf8_lossy(&raw[..end])
}

fn le_u32(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

fn le_u64(bytes: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(bytes.get(at..at + 8)?.try_into().ok()?))
}

fn le_u32s<const N: usize>(bytes: &[u8]) -> Option<[u32; N]> {
    let mut out = [0; N];
    for (i, value) in out.iter_mut().enumerate() {
        *value = le_u32(bytes, i * 4)?;
    }
    Some(out)
}

fn le_u64s<const N: usize>(bytes: &[u8]) -> Option<[u64; N]> {
    let mut out = [0; N];
    for (i, value) in out.iter_mut().enumerate() {
        *value = le_u64(bytes, i * 8)?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Payload layouts as the reference README gives them, written out by
    /// hand, decode to the values they hold and encode back unchanged.
    #[test]
    fn payload_layouts_follow_the_format_description() {
        let cases: Vec<(u32, Vec<u8>, Section)> = vec![
            (
                3,
                [0x00, 0x10, 0xd9, 0x01, 0xfc, 0x0f, 0, 0].to_vec(),
                Section::GpuAddr(Address::short(0x1d91000, 0xffc)),
            ),
            (
                3,
                [0x00, 0x60, 0x02, 0x00, 0x00, 0x04, 0, 0, 0x01, 0, 0, 0].to_vec(),
                Section::GpuAddr(Address::new(0x1_0002_6000, 1024)),
            ),
            (
                6,
                [0x00, 0x80, 0x02, 0x00, 185, 0, 0, 0, 0x01, 0, 0, 0].to_vec(),
                Section::CmdstreamAddr(Address::new(0x1_0002_8000, 185)),
            ),
            (13, [0x76, 0x02, 0, 0].to_vec(), Section::GpuId(630)),
            (
                14,
                [0xff, 0x00, 0x06, 0x06, 0, 0, 0, 0].to_vec(),
                Section::ChipId(0x0606_00ff),
            ),
            (
                7,
                [3, 0, 0, 0, 0xff, 0, 0, 0, 32, 0, 0, 0].to_vec(),
                Section::Param(Param {
                    kind: 3,
                    value: 0xff,
                    bitlen: 32,
                }),
            ),
            (8, vec![], Section::Flush),
            (
                17,
                [
                    [0x00, 0x60, 0x02, 0x00, 0x01, 0, 0, 0].as_slice(),
                    &[0x00, 0x04, 0, 0, 0, 0, 0, 0],
                    &[1, 0, 0, 0, 0, 0, 0, 0],
                    b"out.bin\0",
                ]
                .concat(),
                Section::WrBuffer(WrBuffer {
                    iova: 0x1_0002_6000,
                    size: 1024,
                    clear: 1,
                    name: b"out.bin\0".to_vec(),
                }),
            ),
            (
                99,
                vec![1, 2, 3],
                Section::Unknown {
                    section_type: SectionType(99),
                    payload: vec![1, 2, 3],
                },
            ),
        ];
        for (number, payload, expected) in cases {
            let decoded = Section::decode(SectionType(number), payload.clone()).unwrap();
            assert_eq!(decoded, expected);
            assert_eq!(decoded.section_type(), SectionType(number));
            assert_eq!(decoded.payload().as_ref(), payload.as_slice());
        }
    }

    #[test]
    fn fixed_size_sections_reject_other_sizes() {
        for (number, len) in [(3, 10), (6, 4), (13, 8), (14, 4), (7, 8), (8, 1), (17, 23)] {
            let err = Section::decode(SectionType(number), vec![0; len]).unwrap_err();
            assert!(
                matches!(err, ErrorKind::PayloadSize { section, len: l, .. }
                    if section == SectionType(number) && l == len as u64),
                "{number}/{len}: {err}"
            );
        }
    }

    #[test]
    fn text_stops_at_the_first_nul() {
        let section = Section::Cmd(b"glxgears/23375: fence=1029604\0\x10\xc1".to_vec());
        assert_eq!(section.text().unwrap(), "glxgears/23375: fence=1029604");
        let unterminated = Section::Cmd(b"null_platform_t/2995: fence=1855".to_vec());
        assert_eq!(
            unterminated.text().unwrap(),
            "null_platform_t/2995: fence=1855"
        );
        assert_eq!(Section::GpuId(630).text(), None);
    }

    #[test]
    fn names_follow_freedreno() {
        assert_eq!(SectionType::GPUADDR.to_string(), "RD_GPUADDR");
        assert_eq!(SectionType(17).to_string(), "RD_WRBUFFER");
        assert_eq!(SectionType(18).to_string(), "unknown section type 18");
        let param = Param {
            kind: 9,
            value: 0,
            bitlen: 0,
        };
        assert_eq!(param.kind_name(), Some("RD_PARAM_BLIT_Y2"));
    }
}
