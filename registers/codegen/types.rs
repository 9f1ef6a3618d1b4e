//! How a value's type is decided from the source, shared by both
//! generators: the rules-ng rules freedreno's tools follow.

use crate::source::{Db, Field, TypeInfo};

#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    Hex,
    Uint,
    Int,
    Boolean,
    Fixed,
    UFixed,
    Float,
    Address,
    WAddress,
    RegId,
    /// A named enum, by source name.
    Enum(String),
    /// Fields, either inline or from a named bitset.
    Bitset(Vec<Field>),
    /// Inline `value` children.
    InlineEnum,
}

/// Resolves a value's kind: a named type wins; otherwise bitfields make a
/// bitset, values an enum, a lone bit 0 a boolean, anything else hex.
pub fn kind(db: &Db, ti: &TypeInfo) -> Result<Kind, String> {
    if let Some(name) = &ti.ty {
        if let Some(e) = db.enums.iter().find(|e| &e.name == name) {
            return Ok(if e.inline {
                Kind::InlineEnum
            } else {
                Kind::Enum(name.clone())
            });
        }
        if let Some(b) = db.bitsets.iter().find(|b| &b.name == name) {
            // An inline bitset's fields follow the register's own; a
            // named (non-inline) bitset replaces them.
            let mut fields = if b.inline {
                ti.fields.clone()
            } else {
                Vec::new()
            };
            fields.extend(b.fields.iter().cloned());
            return Ok(Kind::Bitset(fields));
        }
        return Ok(match name.as_str() {
            "hex" => Kind::Hex,
            "uint" => Kind::Uint,
            "int" => Kind::Int,
            "boolean" => Kind::Boolean,
            "fixed" => Kind::Fixed,
            "ufixed" => Kind::UFixed,
            "float" => Kind::Float,
            "address" => Kind::Address,
            "waddress" => Kind::WAddress,
            "a3xx_regid" => Kind::RegId,
            other => return Err(format!("unknown type `{other}`")),
        });
    }
    Ok(if !ti.fields.is_empty() {
        Kind::Bitset(ti.fields.clone())
    } else if !ti.values.is_empty() {
        Kind::InlineEnum
    } else if ti.low == 0 && ti.high == 0 {
        Kind::Boolean
    } else {
        Kind::Hex
    })
}

/// The values an inline enum type names: its own `value` children, then
/// those of the inline enum its type names.
pub fn inline_values(db: &Db, ti: &TypeInfo) -> Vec<crate::source::Value> {
    let mut values = ti.values.clone();
    if let Some(name) = &ti.ty {
        if let Some(e) = db.enums.iter().find(|e| &e.name == name) {
            values.extend(e.values.iter().cloned());
        }
    }
    values
}

/// `a6xx_format` -> `A6xxFormat`, `RB_2D_DST` -> `Rb2dDst`.
pub fn camel(name: &str) -> String {
    let mut out = String::new();
    for part in name.split(['_', '.']).filter(|p| !p.is_empty()) {
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            out.push(first.to_ascii_uppercase());
            out.extend(chars.map(|c| c.to_ascii_lowercase()));
        }
    }
    out
}

const KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for",
    "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return",
    "self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where",
    "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "typeof", "unsized", "virtual", "yield", "try",
];

/// `COLOR_FORMAT` -> `color_format`; names starting with a digit get a
/// `field_` prefix, keywords a raw identifier.
pub fn snake(name: &str) -> String {
    let lower = name.to_ascii_lowercase();
    if lower.starts_with(|c: char| c.is_ascii_digit()) {
        format!("field_{lower}")
    } else if KEYWORDS.contains(&lower.as_str()) {
        format!("r#{lower}")
    } else {
        lower
    }
}
