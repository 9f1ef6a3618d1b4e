//! Reports about malformed or incomplete input: what is wrong and where, by
//! command stream, GPU address and offset in the trace file. They go beside
//! the decoded text (the binary prints them on stderr), so that the text
//! itself stays comparable with freedreno's.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    /// The command stream being decoded (`cmdstream[N]`), if any.
    pub cmdstream: Option<u32>,
    /// Where in GPU memory.
    pub gpu_address: Option<u64>,
    /// Where in the (uncompressed) trace file.
    pub file_offset: Option<u64>,
    pub message: String,
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut place = Vec::new();
        if let Some(n) = self.cmdstream {
            place.push(format!("cmdstream[{n}]"));
        }
        if let Some(a) = self.gpu_address {
            place.push(format!("GPU address {a:#x}"));
        }
        if let Some(o) = self.file_offset {
            place.push(format!("file offset {o:#x}"));
        }
        if place.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", place.join(", "), self.message)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_every_place_it_knows() {
        let note = Note {
            cmdstream: Some(2),
            gpu_address: Some(0x1d92000),
            file_offset: Some(0x40),
            message: "nothing was captured there".into(),
        };
        assert_eq!(
            note.to_string(),
            "cmdstream[2], GPU address 0x1d92000, file offset 0x40: nothing was captured there"
        );
        let bare = Note {
            cmdstream: None,
            gpu_address: None,
            file_offset: None,
            message: "x".into(),
        };
        assert_eq!(bare.to_string(), "x");
    }
}
