//! Text for register values and packet payloads in the style of
//! freedreno's decoder (`cffdump`), so that our decoder's output compares
//! line by line with the reference logs:
//!
//! ```text
//! RB_MRT[0].BUF_INFO: { COLOR_FORMAT = FMT6_8_8_8_8_UNORM | COLOR_TILE_MODE = TILE6_3 | COLOR_SWAP = WZYX }
//! TPL1_DBG_ECO_CNTL: 0x1008000 | 0x4000000
//! { EVENT = CACHE_INVALIDATE }
//! ```
//!
//! The rules follow freedreno's rules-ng decoder, as observed in its logs:
//! - a bitset prints `{ A | B = x | ... }`: booleans by name when set,
//!   other fields as `NAME = value`, fields named `UNK<n>` only when
//!   non-zero and in hex, then the set bits no field covers, in hex; an
//!   all-zero bitset prints `{ 0 }`;
//! - hex as `%#x` (`0`, `0x1f`), uint/int in decimal, fixed point and floats
//!   with six decimals, enums by name (hex when unnamed), booleans as
//!   `TRUE`/`FALSE`, ir3 registers as `r<n>.<c>`;
//! - bits of a value outside its field are appended as ` | 0x...`;
//! - a selector field (`addvariant`) is decoded before the fields that
//!   depend on it, in the place of the first ordinary field before it, and
//!   what it selected stays in force (in a [`VariantState`]) until another
//!   packet selects again.

use crate::chip::Chip;
use crate::lookup;
use crate::table::{Cond, Domain, Elem, ElemKind, EnumValue, Origin, TypeInfo, ValueKind};

/// Selector values decoded so far. Freedreno's decoder keeps one for a
/// whole trace; a selector never decoded lets every variant through.
#[derive(Debug, Default, Clone)]
pub struct VariantState {
    selected: Vec<(&'static str, &'static str)>,
}

impl VariantState {
    pub fn new() -> Self {
        Self::default()
    }

    /// The variant `varset` selected last, if any.
    pub fn get(&self, varset: &str) -> Option<&'static str> {
        self.selected
            .iter()
            .find(|(v, _)| *v == varset)
            .map(|(_, s)| *s)
    }

    fn set(&mut self, varset: &'static str, variant: &'static str) {
        match self.selected.iter_mut().find(|(v, _)| *v == varset) {
            Some(slot) => slot.1 = variant,
            None => self.selected.push((varset, variant)),
        }
    }

    fn admits(&self, chip: Chip, cond: &Cond) -> bool {
        if !cond.on(chip) {
            return false;
        }
        match &cond.when {
            None => true,
            Some(w) => self
                .get(w.varset)
                .is_none_or(|sel| w.variants.contains(&sel)),
        }
    }
}

/// `%#x`: `0` for zero, `0x..` otherwise.
pub fn hex(v: u64) -> String {
    if v == 0 {
        "0".to_string()
    } else {
        format!("{v:#x}")
    }
}

/// C's `%f`.
fn c_float(v: f64) -> String {
    if v.is_nan() {
        if v.is_sign_negative() { "-nan" } else { "nan" }.to_string()
    } else {
        format!("{v:.6}")
    }
}

/// Fields named `UNK<n>` are placeholders for bits of unknown use.
fn is_unknown(name: &str) -> bool {
    name.strip_prefix("UNK")
        .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
}

fn enum_name(
    chip: Chip,
    state: &VariantState,
    values: &'static [EnumValue],
    v: u64,
) -> Option<&'static str> {
    values
        .iter()
        .find(|e| e.value == v && state.admits(chip, &e.cond))
        .map(|e| e.name)
}

fn is_boolean(info: &TypeInfo) -> bool {
    matches!(info.kind, ValueKind::Boolean)
}

/// Decodes `value` (the register's raw bits) as `info` describes it.
pub fn decode_value(
    chip: Chip,
    state: &mut VariantState,
    info: &'static TypeInfo,
    value: u64,
) -> String {
    let mask = info.mask();
    let width = u32::from(info.high - info.low) + 1;
    let v = ((value & mask) >> info.low) << info.shr;
    let text = match info.kind {
        ValueKind::Enum(e) => match enum_name(chip, state, e.values, v) {
            Some(name) => {
                if info.selector {
                    state.set(e.name, name);
                }
                name.to_string()
            }
            None => hex(v),
        },
        ValueKind::InlineEnum => match enum_name(chip, state, info.values, v) {
            Some(name) => name.to_string(),
            None => hex(v),
        },
        ValueKind::Bitset => return decode_bitset(chip, state, info.fields, v),
        ValueKind::Hex | ValueKind::Address | ValueKind::WAddress => hex(v),
        ValueKind::Fixed if width < 64 && v >> (width - 1) & 1 != 0 => {
            format!(
                "-{}",
                c_float(((1u64 << width) - v) as f64 / (1u64 << info.radix) as f64)
            )
        }
        ValueKind::Fixed | ValueKind::UFixed => c_float(v as f64 / (1u64 << info.radix) as f64),
        ValueKind::RegId => format!("r{}.{}", v >> 2, ['x', 'y', 'z', 'w'][(v & 3) as usize]),
        ValueKind::Uint => v.to_string(),
        ValueKind::Int if width < 64 && v >> (width - 1) & 1 != 0 => {
            format!("-{}", (1u64 << width) - v)
        }
        ValueKind::Int => v.to_string(),
        ValueKind::Boolean => match v {
            0 => "FALSE".to_string(),
            1 => "TRUE".to_string(),
            other => hex(other),
        },
        ValueKind::Float => match width {
            64 => c_float(f64::from_bits(v)),
            32 => c_float(f64::from(f32::from_bits(v as u32))),
            16 => c_float(f64::from(crate::encode::half_to_f32(v as u16))),
            _ => hex(v),
        },
    };
    if value & !mask != 0 {
        format!("{text} | {}", hex(value & !mask))
    } else {
        text
    }
}

/// The order freedreno decodes a bitset's fields in: each selector takes
/// the place of the first ordinary field before it.
fn decode_order(fields: &'static [crate::table::Field]) -> Vec<&'static crate::table::Field> {
    let mut order: Vec<_> = fields.iter().collect();
    for i in 0..order.len() {
        if order[i].info.selector {
            if let Some(j) = (0..i).find(|&j| !order[j].info.selector) {
                order.swap(i, j);
            }
        }
    }
    order
}

fn decode_bitset(
    chip: Chip,
    state: &mut VariantState,
    fields: &'static [crate::table::Field],
    v: u64,
) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut covered = 0u64;
    for f in decode_order(fields) {
        if !state.admits(chip, &f.cond) {
            continue;
        }
        let fmask = f.info.mask();
        if v & fmask == 0 && is_unknown(f.name) {
            continue;
        }
        covered |= fmask;
        if is_boolean(&f.info) {
            if v & fmask != 0 {
                parts.push(f.name.to_string());
            }
            continue;
        }
        let sub = if is_unknown(f.name) && !matches!(f.info.kind, ValueKind::RegId) {
            hex(((v & fmask) >> f.info.low) << f.info.shr)
        } else {
            decode_value(chip, state, &f.info, v & fmask)
        };
        parts.push(format!("{} = {sub}", f.name));
    }
    if v & !covered != 0 {
        parts.push(hex(v & !covered));
    }
    if parts.is_empty() {
        parts.push("0".to_string());
    }
    format!("{{ {} }}", parts.join(" | "))
}

/// The name freedreno prints for register `offset` on `chip` (as in
/// `write RB_MRT[0].BUF_INFO (8822)`); `0x<offset>` when unknown.
pub fn register_name(chip: Chip, offset: u32) -> String {
    match lookup::chip_table(chip).register(offset) {
        Some(e) => e.name.clone(),
        None => hex(u64::from(offset)),
    }
}

/// One register's line, without indentation: `NAME: decoded`. `value`
/// holds both dwords of a 64-bit register. The decoder appends the buffer
/// an address points into (`\t\tbase=..., offset=..., size=...`) itself.
pub fn format_register(chip: Chip, offset: u32, value: u64) -> String {
    let table = lookup::chip_table(chip);
    match table.register(offset) {
        Some(e) => match e.info {
            Some(info) => {
                let mut state = VariantState::new();
                format!(
                    "{}: {}",
                    e.name,
                    decode_value(chip, &mut state, info, value)
                )
            }
            None => format!("{}: {value:08x}", e.name),
        },
        None => format!("{}: {value:08x}", hex(u64::from(offset))),
    }
}

/// Whether the register at `offset` holds a GPU address (the decoder then
/// names the buffer it points into).
pub fn is_address_register(chip: Chip, offset: u32) -> bool {
    lookup::chip_table(chip)
        .register(offset)
        .and_then(|e| e.info)
        .is_some_and(|i| matches!(i.kind, ValueKind::Address | ValueKind::WAddress))
}

struct DwordMatch {
    name: String,
    info: Option<&'static TypeInfo>,
}

/// Which item of a packet domain describes payload dword `addr`, the first
/// in the domain's order that does (as freedreno's decoder looks it up).
fn match_dword(
    chip: Chip,
    state: &VariantState,
    elems: &'static [Elem],
    addr: u32,
) -> Option<DwordMatch> {
    for e in elems.iter().filter(|e| state.admits(chip, &e.cond)) {
        match &e.kind {
            ElemKind::Reg { width, info } => {
                if addr < e.offset {
                    continue;
                }
                let rel = addr - e.offset;
                let (idx, off) = match rel.checked_div(e.stride) {
                    Some(idx) => (idx, rel % e.stride),
                    None => (0, rel),
                };
                if off >= u32::from(*width) / 32 || (e.length != 0 && idx >= e.length) {
                    continue;
                }
                let mut name = e.name.to_string();
                if e.length != 1 {
                    name = format!("{name}[{}]", lookup::index_text(idx));
                }
                if off != 0 {
                    let addr_type = matches!(info.kind, ValueKind::Address | ValueKind::WAddress);
                    name = if off == 1 && addr_type {
                        format!("{name}_HI")
                    } else {
                        format!("{name}+{off:#x}")
                    };
                }
                return Some(DwordMatch {
                    name,
                    info: Some(info),
                });
            }
            ElemKind::Stripe { elems } => {
                if addr < e.offset {
                    continue;
                }
                if let Some(m) = match_dword(chip, state, elems, addr - e.offset) {
                    return Some(m);
                }
            }
            ElemKind::Array { elems } => {
                if addr < e.offset {
                    continue;
                }
                let idx = (addr - e.offset) / e.stride;
                let off = (addr - e.offset) % e.stride;
                if e.length != 0 && idx >= e.length {
                    continue;
                }
                let mut name = e.name.to_string();
                if e.length != 1 {
                    name = format!("{name}[{}]", lookup::index_text(idx));
                }
                return Some(match match_dword(chip, state, elems, off) {
                    Some(m) => DwordMatch {
                        name: format!("{name}.{}", m.name),
                        info: m.info,
                    },
                    None => DwordMatch {
                        name: format!("{name}+{off:#x}"),
                        info: None,
                    },
                });
            }
        }
    }
    None
}

/// The payload lines freedreno prints under `opcode: ...` for a packet
/// whose payload layout is `domain` (see [`crate::lookup::packet_domain`]):
/// one line per described dword (or 64-bit pair), stopping at the first
/// dword the layout does not describe. Domains Parsnip added print nothing,
/// as in freedreno.
pub fn format_payload(
    chip: Chip,
    state: &mut VariantState,
    domain: &'static Domain,
    payload: &[u32],
) -> Vec<String> {
    let mut lines = Vec::new();
    if domain.origin != Origin::Freedreno {
        return lines;
    }
    let mut i = 0;
    while i < payload.len() {
        let Some(m) = match_dword(chip, state, domain.elems, i as u32) else {
            break;
        };
        let Some(info) = m.info else { break };
        let mut value = u64::from(payload[i]);
        if info.high >= 32 && i + 1 < payload.len() {
            value |= u64::from(payload[i + 1]) << 32;
            i += 1;
        }
        let decoded = decode_value(chip, state, info, value);
        lines.push(if matches!(info.kind, ValueKind::Bitset) {
            decoded
        } else {
            format!("{{ {} = {decoded} }}", m.name)
        });
        i += 1;
    }
    lines
}
