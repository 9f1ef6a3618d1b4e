//! The text form back to a trace (see the module's documentation).

use std::fmt;

use parsnip_rd::{Compression, Record, Section, SectionType, Writer};
use parsnip_registers::lookup::chip_table;
use parsnip_registers::pm4::{opcode_by_name, pkt4, pkt7, PKT4_MAX_COUNT, PKT7_MAX_COUNT};
use parsnip_registers::Chip;

use super::MAGIC;
use crate::decode::isa_gen;

/// Where the text is wrong, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AssembleError {
    /// 1-based line number.
    pub line: usize,
    pub why: String,
}

impl fmt::Display for AssembleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.why)
    }
}

impl std::error::Error for AssembleError {}

/// What the lines after a keyword hold.
enum Body {
    None,
    /// Payload dwords of a type 7 packet.
    Pkt7 {
        opcode: u32,
        payload: Vec<u32>,
    },
    /// `REGISTER VALUE` lines of a type 4 packet.
    Pkt4 {
        offset: Option<u32>,
        values: Vec<u32>,
    },
    /// Plain dwords.
    Dwords,
    /// ir3 assembly: the text after each `|`, and the line it starts at.
    Shader {
        first_line: usize,
        source: String,
    },
}

struct Assembler {
    chip: Option<Chip>,
    records: Vec<Record>,
    /// The record being assembled: its type, padding and payload.
    current: Option<(u32, u64, Vec<u8>)>,
    body: Body,
    trailing_padding: Option<u64>,
    line: usize,
}

/// A number as the text form writes them: `0x` hexadecimal or decimal.
pub fn number(text: &str) -> Option<u64> {
    match text.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => text.parse().ok(),
    }
}

fn hex_bytes(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

impl Assembler {
    fn error(&self, why: impl Into<String>) -> AssembleError {
        AssembleError {
            line: self.line,
            why: why.into(),
        }
    }

    fn payload(&mut self) -> Result<&mut Vec<u8>, AssembleError> {
        match &mut self.current {
            Some((_, _, payload)) => Ok(payload),
            None => Err(AssembleError {
                line: self.line,
                why: "contents before the first `record`".into(),
            }),
        }
    }

    fn push_dwords(&mut self, dwords: &[u32]) -> Result<(), AssembleError> {
        let payload = self.payload()?;
        for d in dwords {
            payload.extend_from_slice(&d.to_le_bytes());
        }
        Ok(())
    }

    /// Ends the packet or dword run being assembled.
    fn close_body(&mut self) -> Result<(), AssembleError> {
        match std::mem::replace(&mut self.body, Body::None) {
            Body::None | Body::Dwords => Ok(()),
            Body::Shader { first_line, source } => {
                let chip = self
                    .chip
                    .ok_or_else(|| self.error("a shader needs the `chip` line"))?;
                let words =
                    parsnip_isa::assemble(&source, isa_gen(chip)).map_err(|e| AssembleError {
                        line: first_line + e.line,
                        why: format!("ir3: {}", e.message),
                    })?;
                let payload = self.payload()?;
                for w in words {
                    payload.extend_from_slice(&w.to_le_bytes());
                }
                Ok(())
            }
            Body::Pkt7 { opcode, payload } => {
                if payload.len() as u32 > PKT7_MAX_COUNT {
                    return Err(self.error("a pkt7 payload longer than a packet holds"));
                }
                let mut dwords = vec![pkt7(opcode, payload.len() as u32)];
                dwords.extend(payload);
                self.push_dwords(&dwords)
            }
            Body::Pkt4 { offset, values } => {
                let Some(offset) = offset else {
                    return Err(self.error("a pkt4 writes no register"));
                };
                if values.len() as u32 > PKT4_MAX_COUNT {
                    return Err(self.error("a pkt4 writing more registers than a packet holds"));
                }
                let mut dwords = vec![pkt4(offset, values.len() as u32)];
                dwords.extend(values);
                self.push_dwords(&dwords)
            }
        }
    }

    fn close_record(&mut self) -> Result<(), AssembleError> {
        self.close_body()?;
        if let Some((section_type, padding, payload)) = self.current.take() {
            let section = Section::decode(SectionType(section_type), payload)
                .map_err(|e| self.error(format!("the record does not hold: {e}")))?;
            self.records.push(Record {
                offset: 0,
                padding,
                section,
            });
        }
        Ok(())
    }

    fn register_offset(&self, name: &str) -> Option<u32> {
        if let Some(o) = name.strip_prefix("0x") {
            return u32::from_str_radix(o, 16).ok();
        }
        chip_table(self.chip?).offset_of(name)
    }

    fn opcode(&self, name: &str) -> Option<u32> {
        if name.starts_with("0x") {
            return number(name).and_then(|n| u32::try_from(n).ok());
        }
        opcode_by_name(self.chip?, name)
    }

    fn values(&self, words: &[&str]) -> Result<Vec<u32>, AssembleError> {
        words
            .iter()
            .map(|w| {
                number(w)
                    .and_then(|n| u32::try_from(n).ok())
                    .ok_or_else(|| self.error(format!("`{w}` is not a dword")))
            })
            .collect()
    }

    fn line(&mut self, text: &str) -> Result<(), AssembleError> {
        // ir3 lines keep their `#` (branch targets); ir3 comments are `;`.
        if let Some(ir3) = text.trim_start().strip_prefix('|') {
            let Body::Shader { source, .. } = &mut self.body else {
                return Err(self.error("an ir3 line outside a `shader`"));
            };
            source.push_str(ir3);
            source.push('\n');
            return Ok(());
        }
        let text = text.split('#').next().unwrap_or_default();
        let words: Vec<&str> = text.split_whitespace().collect();
        let Some(&first) = words.first() else {
            return Ok(());
        };
        match first {
            "record" => {
                self.close_record()?;
                let (Some(t), Some("padding"), Some(p)) = (
                    words.get(1).and_then(|w| number(w)),
                    words.get(2).copied(),
                    words.get(3).and_then(|w| number(w)),
                ) else {
                    return Err(self.error("expected `record TYPE padding N`"));
                };
                let t = u32::try_from(t).map_err(|_| self.error("a section type is 32 bits"))?;
                self.current = Some((t, p, Vec::new()));
            }
            // The chip whose names the packets use.
            "chip" => {
                self.chip = match words.get(1).copied() {
                    Some("a6xx") => Some(Chip::A6xx),
                    Some("a7xx") => Some(Chip::A7xx),
                    _ => return Err(self.error("expected `chip a6xx` or `chip a7xx`")),
                };
            }
            "trailing_padding" => {
                self.close_record()?;
                let n = words.get(1).and_then(|w| number(w));
                self.trailing_padding =
                    Some(n.ok_or_else(|| self.error("expected `trailing_padding N`"))?);
            }
            "hex" | "tail" => {
                self.close_body()?;
                let bytes = words
                    .get(1)
                    .and_then(|h| hex_bytes(h))
                    .ok_or_else(|| self.error(format!("expected `{first} HEXBYTES`")))?;
                self.payload()?.extend_from_slice(&bytes);
            }
            // Where an IB starts: said for the reader, nothing to assemble.
            "ib" => self.close_body()?,
            "pkt7" => {
                self.close_body()?;
                let name = words
                    .get(1)
                    .ok_or_else(|| self.error("pkt7 needs an opcode"))?;
                let opcode = self
                    .opcode(name)
                    .ok_or_else(|| self.error(format!("unknown opcode {name}")))?;
                self.payload()?;
                self.body = Body::Pkt7 {
                    opcode,
                    payload: self.values(&words[2..])?,
                };
            }
            "pkt4" => {
                self.close_body()?;
                self.payload()?;
                self.body = Body::Pkt4 {
                    offset: None,
                    values: Vec::new(),
                };
            }
            "shader" => {
                self.close_body()?;
                self.payload()?;
                self.body = Body::Shader {
                    // The ir3 assembler counts lines from 1 at the next one.
                    first_line: self.line,
                    source: String::new(),
                };
            }
            "dwords" => {
                self.close_body()?;
                self.payload()?;
                self.body = Body::Dwords;
            }
            _ => self.body_line(&words)?,
        }
        Ok(())
    }

    /// A line inside a packet or dword run.
    fn body_line(&mut self, words: &[&str]) -> Result<(), AssembleError> {
        match &self.body {
            Body::None => Err(self.error(format!("unknown keyword `{}`", words[0]))),
            Body::Shader { .. } => Err(self.error("ir3 lines start with `|`")),
            Body::Dwords => {
                let values = self.values(words)?;
                self.push_dwords(&values)
            }
            Body::Pkt7 { .. } => {
                let values = self.values(words)?;
                if let Body::Pkt7 { payload, .. } = &mut self.body {
                    payload.extend(values);
                }
                Ok(())
            }
            Body::Pkt4 { offset, values } => {
                let [name, value] = words else {
                    return Err(self.error("expected `REGISTER VALUE`"));
                };
                let at = self
                    .register_offset(name)
                    .ok_or_else(|| self.error(format!("unknown register {name}")))?;
                let expected = offset.map(|o| o + values.len() as u32);
                if expected.is_some_and(|e| e != at) {
                    return Err(self.error(format!(
                        "{name} is not the register after the one before: one pkt4 writes \
                         consecutive registers"
                    )));
                }
                let value = self.values(&[value])?[0];
                if let Body::Pkt4 { offset, values } = &mut self.body {
                    offset.get_or_insert(at);
                    values.push(value);
                }
                Ok(())
            }
        }
    }
}

/// The trace `text` describes, as the bytes of an uncompressed `.rd`.
pub fn assemble(text: &str) -> Result<Vec<u8>, AssembleError> {
    let mut a = Assembler {
        chip: None,
        records: Vec::new(),
        current: None,
        body: Body::None,
        trailing_padding: None,
        line: 1,
    };
    let mut lines = text.lines();
    if lines.next().map(str::trim) != Some(MAGIC) {
        return Err(a.error(format!("the first line is not `{MAGIC}`")));
    }
    for (i, line) in lines.enumerate() {
        a.line = i + 2;
        a.line(line)?;
    }
    a.close_record()?;
    let mut writer = Writer::new(Vec::new(), Compression::None);
    let written = (|| {
        for r in &a.records {
            writer.write_record(r)?;
        }
        writer.write_padding(a.trailing_padding.unwrap_or(0))?;
        writer.finish()
    })();
    written.map_err(|e| a.error(format!("writing the trace: {e}")))
}
