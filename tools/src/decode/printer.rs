//! Where the decoder's text goes: indentation by nesting level, the hex and
//! float dumps of GPU memory, and optional colour.
//!
//! The layout is freedreno's decoder's (`cffdump`), so that the reference
//! logs compare line by line: a nesting level `n` is `n + 1` tabs, a hex dump
//! row is `<16-digit address>:<tabs><byte offset>: <up to 8 dwords>`, and a
//! run of all-zero rows after the first is shown as a single `*`.
//!
//! Writing never stops the decoder: the first I/O error is kept and returned
//! by [`Printer::finish`], and nothing more is written after it (a closed
//! pipe must not turn into a flood of errors).

use std::io::{self, Write};

/// Tabs enough for any nesting the decoder allows.
const TABS: &str = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t";

/// The indentation of nesting level `level`: `level + 1` tabs.
pub(crate) fn indent(level: usize) -> &'static str {
    tabs(level + 1)
}

/// Exactly `n` tabs (shader disassembly counts its levels from zero tabs).
pub(crate) fn tabs(n: usize) -> &'static str {
    &TABS[..n.min(TABS.len())]
}

/// What a piece of text is, for colouring.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Style {
    /// A packet's opcode name.
    Opcode,
    /// A register name in a `write` line.
    Register,
    /// A draw's register summary heading.
    Heading,
}

impl Style {
    fn escape(self) -> &'static str {
        match self {
            Style::Opcode => "\x1b[1;36m",
            Style::Register => "\x1b[1;34m",
            Style::Heading => "\x1b[1;33m",
        }
    }
}

pub(crate) struct Printer<W: Write> {
    out: W,
    color: bool,
    error: Option<io::Error>,
}

impl<W: Write> Printer<W> {
    pub(crate) fn new(out: W, color: bool) -> Self {
        Self {
            out,
            color,
            error: None,
        }
    }

    pub(crate) fn bytes(&mut self, bytes: &[u8]) {
        if self.error.is_none() {
            if let Err(e) = self.out.write_all(bytes) {
                self.error = Some(e);
            }
        }
    }

    pub(crate) fn text(&mut self, text: &str) {
        self.bytes(text.as_bytes());
    }

    /// `text` and a newline.
    pub(crate) fn line(&mut self, text: &str) {
        self.text(text);
        self.text("\n");
    }

    /// `text` at nesting level `level`.
    pub(crate) fn at(&mut self, level: usize, text: &str) {
        self.text(indent(level));
        self.line(text);
    }

    /// `text`, coloured as `style` when colour is on.
    pub(crate) fn painted(&self, style: Style, text: &str) -> String {
        if self.color {
            format!("{}{text}\x1b[0m", style.escape())
        } else {
            text.to_string()
        }
    }

    /// Rows of 8 dwords that start at GPU address `iova`, at `level`; rows of
    /// zeros after the first are collapsed into one `*` line.
    pub(crate) fn hex_dump(&mut self, iova: u64, dwords: &[u32], level: usize) {
        let mut previous_zero = true;
        for (row, chunk) in dwords.chunks(8).enumerate() {
            let zero = row != 0 && chunk.iter().all(|&d| d == 0);
            if zero && !previous_zero {
                self.line("*");
            }
            previous_zero = zero;
            if zero {
                continue;
            }
            let byte_offset = row as u64 * 32;
            let mut text = format!(
                "{:016x}:{}{:04x}:",
                iova.wrapping_add(byte_offset),
                indent(level),
                byte_offset
            );
            for dword in chunk {
                text.push_str(&format!(" {dword:08x}"));
            }
            self.line(&text);
        }
    }

    /// The dwords as floats, 8 to a row, each as C's `%8f`.
    pub(crate) fn float_dump(&mut self, iova: u64, dwords: &[u32], level: usize) {
        for (row, chunk) in dwords.chunks(8).enumerate() {
            let mut text = format!(
                "{:016x}:{}",
                iova.wrapping_add(row as u64 * 32),
                indent(level)
            );
            let values: Vec<String> = chunk
                .iter()
                .map(|&d| format!("{:>8}", c_float(f32::from_bits(d))))
                .collect();
            text.push_str(&values.join(" "));
            self.line(&text);
        }
    }

    /// The writer, or the first error writing to it.
    pub(crate) fn finish(mut self) -> io::Result<W> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.out.flush()?;
        Ok(self.out)
    }
}

/// C's `%f` for a float: six decimals, `nan`/`inf` spelled as glibc does.
fn c_float(v: f32) -> String {
    let v = f64::from(v);
    if v.is_nan() {
        if v.is_sign_negative() { "-nan" } else { "nan" }.to_string()
    } else if v.is_infinite() {
        if v < 0.0 { "-inf" } else { "inf" }.to_string()
    } else {
        format!("{v:.6}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn printed(f: impl FnOnce(&mut Printer<Vec<u8>>)) -> String {
        let mut p = Printer::new(Vec::new(), false);
        f(&mut p);
        String::from_utf8(p.finish().unwrap()).unwrap()
    }

    #[test]
    fn hex_dump_rows_collapse_zero_runs_after_the_first_row() {
        // As in the reference logs: the first row is always shown, even all
        // zero; a run of zero rows after it becomes one `*`, and a later
        // non-zero row is shown again.
        let mut dwords = vec![0u32; 32];
        dwords[24] = 0x1234;
        let text = printed(|p| p.hex_dump(0x1d91000, &dwords, 1));
        assert_eq!(
            text,
            "0000000001d91000:\t\t0000: 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000\n*\n\
             0000000001d91060:\t\t0060: 00001234 00000000 00000000 00000000 00000000 00000000 00000000 00000000\n"
        );
        let text = printed(|p| p.hex_dump(0x1000, &[1, 0, 0, 0, 0, 0, 0, 0, 0, 0], 0));
        assert_eq!(
            text,
            "0000000000001000:\t0000: 00000001 00000000 00000000 00000000 00000000 00000000 00000000 00000000\n*\n"
        );
    }

    #[test]
    fn float_dump_is_c_percent_8f() {
        let text = printed(|p| {
            p.float_dump(
                0x10002821c,
                &[
                    0x3f80_0000,
                    0xbf80_0000,
                    0x4000_0004,
                    0x7fc0_0000,
                    0xff80_0000,
                ],
                1,
            )
        });
        assert_eq!(
            text,
            "000000010002821c:\t\t1.000000 -1.000000 2.000001      nan     -inf\n"
        );
    }

    #[test]
    fn a_failed_write_is_kept_and_nothing_more_is_written() {
        #[derive(Debug)]
        struct Failing(usize);
        impl Write for Failing {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                self.0 += 1;
                Err(io::Error::new(io::ErrorKind::BrokenPipe, "closed"))
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let mut p = Printer::new(Failing(0), false);
        p.line("one");
        p.line("two");
        assert_eq!(p.out.0, 1);
        assert_eq!(p.finish().unwrap_err().kind(), io::ErrorKind::BrokenPipe);
    }
}
