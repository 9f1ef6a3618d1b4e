//! The errors of decoding, encoding and assembling.

use std::fmt;

use crate::gen::IsaGen;

/// Why a 64-bit word is not an instruction we can decode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// No instruction of this generation has this bit pattern.
    Undefined {
        word: u64,
        generation: IsaGen,
        reason: String,
    },
    /// The word matches an instruction but also sets bits that the ISA XML
    /// marks don't-care or that its text form cannot show. The instruction
    /// would encode as `canonical`; `extra` holds the differing bits.
    NonCanonical {
        word: u64,
        canonical: u64,
        extra: u64,
        instr: String,
    },
}

impl DecodeError {
    pub(crate) fn undefined(word: u64, generation: IsaGen, reason: impl Into<String>) -> Self {
        DecodeError::Undefined {
            word,
            generation,
            reason: reason.into(),
        }
    }

    /// The word that failed.
    pub fn word(&self) -> u64 {
        match self {
            DecodeError::Undefined { word, .. } | DecodeError::NonCanonical { word, .. } => *word,
        }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::Undefined {
                word,
                generation,
                reason,
            } => write!(f, "{word:016x}: no {generation} instruction: {reason}"),
            DecodeError::NonCanonical {
                word, extra, instr, ..
            } => write!(
                f,
                "{word:016x}: decodes as `{instr}` but also sets bits {extra:016x} \
                 that are don't-care or not representable"
            ),
        }
    }
}

impl std::error::Error for DecodeError {}

/// Why an [`Instr`](crate::Instr) cannot be encoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeError {
    pub message: String,
}

impl EncodeError {
    pub(crate) fn new(message: impl Into<String>) -> Self {
        EncodeError {
            message: message.into(),
        }
    }
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for EncodeError {}

/// An assembler error at a place in the source: 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsmError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for AsmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for AsmError {}
