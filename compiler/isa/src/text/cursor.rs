//! A cursor over one line of assembly, with the small lexing steps the
//! instruction parsers share, and errors that point at a column.

/// An error at a byte position of the line (turned into line:column by the
/// assembler).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ParseError {
    pub pos: usize,
    pub message: String,
}

pub(crate) type PResult<T> = Result<T, ParseError>;

pub(crate) struct Cursor<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Cursor<'a> {
    pub fn new(text: &'a str) -> Self {
        Cursor { text, pos: 0 }
    }

    pub fn pos(&self) -> usize {
        self.pos
    }

    pub fn set_pos(&mut self, pos: usize) {
        self.pos = pos;
    }

    pub fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    pub fn error_at<T>(&self, pos: usize, message: impl Into<String>) -> PResult<T> {
        Err(ParseError {
            pos,
            message: message.into(),
        })
    }

    pub fn error<T>(&self, message: impl Into<String>) -> PResult<T> {
        self.error_at(self.pos, message)
    }

    pub fn skip_ws(&mut self) {
        let rest = self.rest();
        self.pos += rest.len() - rest.trim_start().len();
    }

    pub fn at_end(&self) -> bool {
        self.rest().trim().is_empty()
    }

    pub fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    /// Consumes `s` if the text continues with it (no whitespace skipped).
    pub fn eat(&mut self, s: &str) -> bool {
        if self.rest().starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    /// Skips whitespace, then consumes `s` or fails naming what was expected.
    pub fn expect(&mut self, s: &str) -> PResult<()> {
        self.skip_ws();
        if self.eat(s) {
            Ok(())
        } else {
            self.error(format!("expected `{s}`, found {}", self.found()))
        }
    }

    /// A short description of what is at the cursor, for messages.
    pub fn found(&self) -> String {
        let rest = self.rest().trim_end();
        if rest.is_empty() {
            "the end of the line".to_string()
        } else {
            let word: String = rest.chars().take(16).collect();
            format!("`{word}`")
        }
    }

    /// Consumes the characters for which `pred` holds.
    pub fn take_while(&mut self, pred: impl Fn(char) -> bool) -> &'a str {
        let rest = self.rest();
        let len = rest.find(|c| !pred(c)).unwrap_or(rest.len());
        self.pos += len;
        &rest[..len]
    }

    /// An unsigned number: decimal, or hexadecimal after `0x`.
    pub fn uint(&mut self) -> PResult<u64> {
        let start = self.pos;
        let (digits, radix) = if self.eat("0x") || self.eat("0X") {
            (self.take_while(|c| c.is_ascii_hexdigit()), 16)
        } else {
            (self.take_while(|c| c.is_ascii_digit()), 10)
        };
        if digits.is_empty() {
            self.pos = start;
            return self.error(format!("expected a number, found {}", self.found()));
        }
        u64::from_str_radix(digits, radix).or_else(|_| self.error_at(start, "number too large"))
    }

    /// A number with an optional `-` (or `+`).
    pub fn int(&mut self) -> PResult<i64> {
        let negative = self.eat("-");
        if !negative {
            self.eat("+");
        }
        let start = self.pos;
        let v = self.uint()?;
        let v = i64::try_from(v).or_else(|_| self.error_at(start, "number too large"))?;
        Ok(if negative { -v } else { v })
    }

    /// A number that must lie in `lo..=hi`.
    pub fn int_in(&mut self, lo: i64, hi: i64, what: &str) -> PResult<i64> {
        let start = self.pos;
        let v = self.int()?;
        if v < lo || v > hi {
            return self.error_at(start, format!("{what} {v} is outside {lo}..={hi}"));
        }
        Ok(v)
    }

    /// A name: letters, digits, `_` and `.`.
    pub fn word(&mut self) -> &'a str {
        self.take_while(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
    }

    /// Fails unless only whitespace remains.
    pub fn finish(&mut self) -> PResult<()> {
        self.skip_ws();
        if self.at_end() {
            Ok(())
        } else {
            self.error(format!("unexpected {} after the instruction", self.found()))
        }
    }
}
