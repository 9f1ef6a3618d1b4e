//! `--dump IOVA:SIZE:FILE`: a range of GPU memory to write to a file after
//! the replay.

use std::fmt;
use std::path::PathBuf;

/// A range of GPU memory to save.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DumpRequest {
    pub iova: u64,
    pub size: u64,
    pub path: PathBuf,
}

/// A `--dump` argument that does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadDump {
    pub arg: String,
    pub why: &'static str,
}

impl fmt::Display for BadDump {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "--dump {}: {} (expected IOVA:SIZE:FILE, e.g. 0x100026000:1024:out.bin)",
            self.arg, self.why
        )
    }
}

impl std::error::Error for BadDump {}

/// A number in decimal or `0x` hex.
fn number(text: &str) -> Option<u64> {
    match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => text.parse().ok(),
    }
}

impl DumpRequest {
    /// Parses `IOVA:SIZE:FILE` (numbers in decimal or 0x hex; the file name
    /// may itself contain colons).
    pub fn parse(arg: &str) -> Result<Self, BadDump> {
        let bad = |why| BadDump {
            arg: arg.to_string(),
            why,
        };
        let mut parts = arg.splitn(3, ':');
        let (Some(iova), Some(size), Some(path)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err(bad("not three fields"));
        };
        let iova = number(iova).ok_or(bad("the iova is not a number"))?;
        let size = number(size).ok_or(bad("the size is not a number"))?;
        if size == 0 {
            return Err(bad("the size is zero"));
        }
        if iova.checked_add(size).is_none() {
            return Err(bad("the range wraps the address space"));
        }
        if path.is_empty() {
            return Err(bad("the file name is empty"));
        }
        Ok(Self {
            iova,
            size,
            path: PathBuf::from(path),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dump_arguments_parse_and_bad_ones_say_why() {
        assert_eq!(
            DumpRequest::parse("0x100026000:1024:out/c:d.bin").unwrap(),
            DumpRequest {
                iova: 0x1_0002_6000,
                size: 1024,
                path: PathBuf::from("out/c:d.bin"),
            }
        );
        let e = DumpRequest::parse("0x1000:zero:f").unwrap_err();
        assert_eq!(
            e.to_string(),
            "--dump 0x1000:zero:f: the size is not a number (expected IOVA:SIZE:FILE, e.g. \
             0x100026000:1024:out.bin)"
        );
        assert!(DumpRequest::parse("0x1000:16").is_err());
        assert!(DumpRequest::parse("0x1000:0:f").is_err());
        assert!(DumpRequest::parse("0xffffffffffffffff:2:f").is_err());
    }
}
