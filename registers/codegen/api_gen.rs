//! Writes the typed API: one Rust type per enum (`enums.rs`), one struct per
//! register (`regs.rs`), per packet payload dword (`packets.rs`) and per
//! descriptor (`descriptors.rs`).
//!
//! A register whose layout is the same on every chip it exists on gets one
//! struct that knows its offset on each chip. One whose fields differ
//! between chips gets a struct per chip, in the `a6xx` / `a7xx` modules;
//! those modules also re-export the shared structs that exist on their chip,
//! so chip-specific code can `use regs::a7xx::*`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::source::{Chips, Db, Domain, Elem, ElemKind, TypeInfo};
use crate::table_gen::enum_static;
use crate::types::{self, camel, snake, Kind};

#[derive(Clone, Debug, PartialEq)]
enum RustTy {
    Bool,
    U32,
    U64,
    I32,
    I64,
    /// Fixed point (`signed`), held as f32 (up to 24 bits) or f64.
    Fixed {
        signed: bool,
        wide: bool,
    },
    Float,
    Enum(String),
}

impl RustTy {
    fn text(&self) -> String {
        match self {
            RustTy::Bool => "bool".into(),
            RustTy::U32 => "u32".into(),
            RustTy::U64 => "u64".into(),
            RustTy::I32 => "i32".into(),
            RustTy::I64 => "i64".into(),
            RustTy::Fixed { wide: false, .. } | RustTy::Float => "f32".into(),
            RustTy::Fixed { wide: true, .. } => "f64".into(),
            RustTy::Enum(name) => format!("crate::enums::{name}"),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
struct ApiField {
    rust: String,
    xml: String,
    /// Word (dword) of the layout the field sits in, for descriptors.
    word: u32,
    low: u32,
    high: u32,
    shr: u32,
    radix: u32,
    ty: RustTy,
}

#[derive(Clone, Debug, PartialEq)]
enum Shape {
    Reg32,
    Reg64,
    Words(u32),
}

#[derive(Clone, Debug, PartialEq)]
struct Layout {
    shape: Shape,
    /// A register without bitfields is a tuple struct of its one value.
    tuple: bool,
    fields: Vec<ApiField>,
}

#[derive(Clone, Debug, PartialEq)]
enum Place {
    /// A register: its offset, or an array's base, stride and length.
    Reg {
        offset: u32,
        stride: u32,
        length: u32,
        array: bool,
    },
    Packet {
        domain: String,
        dword: u32,
    },
    Descriptor {
        domain: String,
    },
}

#[derive(Clone, Debug)]
struct Entry {
    name: String,
    title: String,
    layout: Layout,
    place: Place,
}

fn rust_ty(db: &Db, ti: &TypeInfo) -> Result<RustTy, String> {
    let width = ti.high - ti.low + 1;
    let unsigned = if width + ti.shr > 32 {
        RustTy::U64
    } else {
        RustTy::U32
    };
    Ok(match types::kind(db, ti)? {
        Kind::Boolean if width == 1 => RustTy::Bool,
        Kind::Hex if width == 1 && ti.ty.is_none() => RustTy::Bool,
        Kind::Int if width + ti.shr > 32 => RustTy::I64,
        Kind::Int => RustTy::I32,
        Kind::Fixed => RustTy::Fixed {
            signed: true,
            wide: width > 24,
        },
        Kind::UFixed => RustTy::Fixed {
            signed: false,
            wide: width > 24,
        },
        Kind::Float if width == 32 || width == 16 => RustTy::Float,
        Kind::Enum(name) => RustTy::Enum(camel(&name)),
        _ => unsigned,
    })
}

/// The fields of a register's value on `chip`: its bitfields, or the whole
/// value as one field.
fn layout(
    db: &Db,
    shape: Shape,
    ti: &TypeInfo,
    chip: Chips,
    word: u32,
    title: &str,
) -> Result<Layout, String> {
    let mut fields = Vec::new();
    let tuple = match types::kind(db, ti)? {
        Kind::Bitset(fs) => {
            for f in fs.iter().filter(|f| f.cond.chips.contains(chip)) {
                let mut rust = snake(&f.name);
                // Same name under different selector values (or an
                // overlapping alias): keep both, told apart by position.
                if let Some(prev) = fields
                    .iter()
                    .find(|p: &&ApiField| p.rust == rust && p.word == word)
                {
                    if prev.low == f.ti.low && prev.high == f.ti.high {
                        continue;
                    }
                    rust = format!("{rust}_{}", f.ti.low);
                }
                fields.push(ApiField {
                    rust,
                    xml: f.name.clone(),
                    word,
                    low: f.ti.low,
                    high: f.ti.high,
                    shr: f.ti.shr,
                    radix: f.ti.radix.unwrap_or(0),
                    ty: rust_ty(db, &f.ti).map_err(|e| format!("{title}.{}: {e}", f.name))?,
                });
            }
            false
        }
        _ => {
            fields.push(ApiField {
                rust: "0".into(),
                xml: title.to_string(),
                word,
                low: ti.low,
                high: ti.high,
                shr: ti.shr,
                radix: ti.radix.unwrap_or(0),
                ty: rust_ty(db, ti).map_err(|e| format!("{title}: {e}"))?,
            });
            true
        }
    };
    Ok(Layout {
        shape,
        tuple,
        fields,
    })
}

fn shape_of(width: u32) -> Shape {
    if width == 64 {
        Shape::Reg64
    } else {
        Shape::Reg32
    }
}

/// Registers of the A6XX domain on `chip`, first definition of a name
/// winning as in the decoder.
fn register_entries(db: &Db, dom: &Domain, chip: Chips) -> Result<Vec<Entry>, String> {
    let mut out: Vec<Entry> = Vec::new();
    for e in dom.elems.iter().filter(|e| e.cond.chips.contains(chip)) {
        match &e.kind {
            ElemKind::Reg { width, ti } => {
                let name = camel(&e.name);
                if out.iter().any(|o| o.name == name) {
                    continue;
                }
                let title = if e.length > 1 {
                    format!("{}[]", e.name)
                } else {
                    e.name.clone()
                };
                out.push(Entry {
                    name,
                    layout: layout(db, shape_of(*width), ti, chip, 0, &title)?,
                    title,
                    place: Place::Reg {
                        offset: e.offset,
                        stride: if e.stride == 0 { width / 32 } else { e.stride },
                        length: e.length,
                        array: e.length > 1,
                    },
                });
            }
            ElemKind::Array => {
                for r in e.children.iter().filter(|r| r.cond.chips.contains(chip)) {
                    let ElemKind::Reg { width, ti } = &r.kind else {
                        return Err(format!("{}: nested arrays are not supported", e.name));
                    };
                    let name = camel(&format!("{}_{}", e.name, r.name));
                    if out.iter().any(|o| o.name == name) {
                        continue;
                    }
                    let title = format!("{}[].{}", e.name, r.name);
                    out.push(Entry {
                        name,
                        layout: layout(db, shape_of(*width), ti, chip, 0, &title)?,
                        title,
                        place: Place::Reg {
                            offset: e.offset + r.offset,
                            stride: e.stride,
                            length: e.length,
                            array: true,
                        },
                    });
                }
            }
            ElemKind::Stripe => return Err("stripes in a register domain are not supported".into()),
        }
    }
    Ok(out)
}

fn dword_name(domain: &str, reg: &str) -> String {
    let reg_part = if reg.chars().all(|c| c.is_ascii_digit()) {
        format!("Dw{reg}")
    } else {
        camel(reg)
    };
    format!("{}{reg_part}", camel(domain))
}

/// One struct per dword (or 64-bit pair) of a packet's payload.
fn packet_entries(db: &Db, dom: &Domain, chip: Chips) -> Result<Vec<Entry>, String> {
    fn walk(
        db: &Db,
        dom: &Domain,
        elems: &[Elem],
        chip: Chips,
        suffix: &str,
        base: u32,
        out: &mut Vec<Entry>,
    ) -> Result<(), String> {
        for e in elems.iter().filter(|e| e.cond.chips.contains(chip)) {
            match &e.kind {
                ElemKind::Reg { width, ti } => {
                    let name = format!("{}{suffix}", dword_name(&dom.name, &e.name));
                    if out.iter().any(|o| o.name == name) {
                        continue;
                    }
                    let title = format!("{}[{}]", dom.name, e.name);
                    out.push(Entry {
                        name,
                        layout: layout(db, shape_of(*width), ti, chip, 0, &title)?,
                        title,
                        place: Place::Packet {
                            domain: dom.name.clone(),
                            dword: base + e.offset,
                        },
                    });
                }
                ElemKind::Stripe => {
                    let sfx = match &e.cond.when {
                        Some(w) => format!(
                            "{suffix}{}",
                            w.variants.iter().map(|v| camel(v)).collect::<String>()
                        ),
                        None => suffix.to_string(),
                    };
                    walk(db, dom, &e.children, chip, &sfx, base + e.offset, out)?;
                }
                ElemKind::Array => walk(db, dom, &e.children, chip, suffix, base + e.offset, out)?,
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    walk(db, dom, &dom.elems, chip, "", 0, &mut out)?;
    Ok(out)
}

/// A descriptor domain as one struct of all its dwords.
fn descriptor_entry(db: &Db, dom: &Domain, name: &str, chip: Chips) -> Result<Entry, String> {
    let mut fields = Vec::new();
    let mut words = 0;
    for e in dom.elems.iter().filter(|e| e.cond.chips.contains(chip)) {
        let ElemKind::Reg { width: 32, ti } = &e.kind else {
            return Err(format!("{}: descriptors hold 32-bit words only", dom.name));
        };
        words = words.max(e.offset + 1);
        let l = layout(db, Shape::Reg32, ti, chip, e.offset, &dom.name)?;
        if !l.tuple {
            fields.extend(l.fields);
        }
    }
    Ok(Entry {
        name: name.to_string(),
        title: dom.name.clone(),
        layout: Layout {
            shape: Shape::Words(words),
            tuple: false,
            fields,
        },
        place: Place::Descriptor {
            domain: dom.name.clone(),
        },
    })
}

fn raw_ty(shape: &Shape) -> String {
    match shape {
        Shape::Reg32 => "u32".into(),
        Shape::Reg64 => "u64".into(),
        Shape::Words(n) => format!("[u32; {n}]"),
    }
}

fn access(f: &ApiField) -> String {
    if f.rust == "0" {
        "self.0".to_string()
    } else {
        format!("self.{}", f.rust)
    }
}

fn mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// The field's bits in place in its word (a `u64` expression), at
/// positions known here: straight-line shifts and masks once inlined.
fn pack_expr(f: &ApiField) -> String {
    let v = access(f);
    let (lo, shr) = (f.low, f.shr);
    let width = f.high - f.low + 1;
    let m = format!("{:#x}", mask(width));
    let bits = match &f.ty {
        RustTy::Bool if width == 1 => return format!("(u64::from({v}) << {lo})"),
        RustTy::Bool | RustTy::U32 => format!("u64::from({v}) >> {shr}"),
        RustTy::U64 => format!("{v} >> {shr}"),
        RustTy::I32 => format!("(i64::from({v}) >> {shr}) as u64"),
        RustTy::I64 => format!("({v} >> {shr}) as u64"),
        RustTy::Fixed { .. } => {
            format!("crate::encode::fixed_bits(f64::from({v}), {})", f.radix)
        }
        RustTy::Float => format!("crate::encode::float_bits({v}, {width})"),
        RustTy::Enum(_) => format!("u64::from({v}.0) >> {shr}"),
    };
    format!("(({bits}) & {m}) << {lo}")
}

/// The statement checking that the field's value fits (`None` for a
/// one-bit boolean, which always does).
fn check_stmt(f: &ApiField) -> Option<String> {
    let v = access(f);
    let (shr, xml) = (f.shr, &f.xml);
    let width = f.high - f.low + 1;
    let call = match &f.ty {
        RustTy::Bool if width == 1 => return None,
        RustTy::Bool | RustTy::U32 => {
            format!("check_uint(Self::NAME, {xml:?}, u64::from({v}), {width}, {shr})")
        }
        RustTy::U64 => format!("check_uint(Self::NAME, {xml:?}, {v}, {width}, {shr})"),
        RustTy::I32 => {
            format!("check_int(Self::NAME, {xml:?}, i64::from({v}), {width}, {shr})")
        }
        RustTy::I64 => format!("check_int(Self::NAME, {xml:?}, {v}, {width}, {shr})"),
        RustTy::Fixed { signed, .. } => format!(
            "check_fixed(Self::NAME, {xml:?}, f64::from({v}), {width}, {}, {signed})",
            f.radix
        ),
        RustTy::Float => format!("check_float(Self::NAME, {xml:?}, {v}, {width})"),
        RustTy::Enum(_) => {
            format!("check_uint(Self::NAME, {xml:?}, u64::from({v}.0), {width}, {shr})")
        }
    };
    Some(format!("crate::encode::{call}?;"))
}

/// `check`, `pack`, `try_to_raw` and `to_raw` of a struct whose raw form
/// is `raw`; `pack_body` builds it from the fields.
fn emit_packing(out: &mut String, fields: &[ApiField], raw: &str, pack_body: &str, what: &str) {
    writeln!(
        out,
        "    /// Whether every field fits its bits; the first that does not is the error."
    )
    .unwrap();
    writeln!(out, "    #[inline(always)]\n    #[allow(clippy::all)]").unwrap();
    writeln!(
        out,
        "    pub fn check(&self) -> Result<(), crate::encode::FieldError> {{"
    )
    .unwrap();
    for f in fields {
        if let Some(stmt) = check_stmt(f) {
            writeln!(out, "        {stmt}").unwrap();
        }
    }
    writeln!(out, "        Ok(())\n    }}").unwrap();
    writeln!(out, "    #[inline(always)]").unwrap();
    writeln!(out, "    #[allow(clippy::all)]").unwrap();
    writeln!(
        out,
        "    fn pack(&self) -> {raw} {{\n        {pack_body}\n    }}"
    )
    .unwrap();
    writeln!(out, "    /// {what}; an out-of-range field is an error.").unwrap();
    writeln!(out, "    #[inline(always)]").unwrap();
    writeln!(
        out,
        "    pub fn try_to_raw(&self) -> Result<{raw}, crate::encode::FieldError> {{"
    )
    .unwrap();
    writeln!(
        out,
        "        self.check()?;\n        Ok(self.pack())\n    }}"
    )
    .unwrap();
    writeln!(
        out,
        "    /// {what} (out-of-range fields: debug assertion, else truncated)."
    )
    .unwrap();
    writeln!(out, "    #[inline(always)]").unwrap();
    writeln!(out, "    #[track_caller]").unwrap();
    writeln!(out, "    pub fn to_raw(&self) -> {raw} {{").unwrap();
    writeln!(out, "        if cfg!(debug_assertions) {{").unwrap();
    writeln!(
        out,
        "            if let Err(e) = self.check() {{ crate::encode::field_overflow(&e) }}"
    )
    .unwrap();
    writeln!(out, "        }}\n        self.pack()\n    }}").unwrap();
}

/// The OR of the fields' bits, or `0` for none.
fn or_of(fields: &[&ApiField]) -> String {
    if fields.is_empty() {
        "0".into()
    } else {
        fields
            .iter()
            .map(|f| pack_expr(f))
            .collect::<Vec<_>>()
            .join(" | ")
    }
}

fn unpack_expr(f: &ApiField, raw: &str) -> String {
    let (lo, hi, shr) = (f.low, f.high, f.shr);
    match &f.ty {
        RustTy::Bool if lo == hi => format!("crate::encode::bit({raw}, {lo})"),
        RustTy::Bool => format!("crate::encode::uint({raw}, {lo}, {hi}, {shr}) != 0"),
        RustTy::U32 => format!("crate::encode::uint({raw}, {lo}, {hi}, {shr}) as u32"),
        RustTy::U64 => format!("crate::encode::uint({raw}, {lo}, {hi}, {shr})"),
        RustTy::I32 => format!("crate::encode::int({raw}, {lo}, {hi}, {shr}) as i32"),
        RustTy::I64 => format!("crate::encode::int({raw}, {lo}, {hi}, {shr})"),
        RustTy::Fixed { signed, wide } => {
            let cast = if *wide { "" } else { " as f32" };
            format!(
                "crate::encode::fixed({raw}, {lo}, {hi}, {}, {signed}){cast}",
                f.radix
            )
        }
        RustTy::Float => format!("crate::encode::float({raw}, {lo}, {hi})"),
        RustTy::Enum(name) => {
            format!("crate::enums::{name}(crate::encode::uint({raw}, {lo}, {hi}, {shr}) as u32)")
        }
    }
}

fn chip_arm(chip: Chips) -> &'static str {
    if chip == Chips::A6XX {
        "crate::Chip::A6xx"
    } else {
        "crate::Chip::A7xx"
    }
}

/// Emits one struct. `places` holds where it is on each chip it exists on.
fn emit_struct(out: &mut String, e: &Entry, places: &[(Chips, Place)], chip_note: &str) {
    let l = &e.layout;
    let raw = raw_ty(&l.shape);
    let derive = "#[derive(Clone, Copy, Debug, Default, PartialEq)]";
    let chips: Vec<&str> = places
        .iter()
        .map(|(c, _)| if *c == Chips::A6XX { "a6xx" } else { "a7xx" })
        .collect();
    writeln!(
        out,
        "/// `{}`{chip_note} (on {}).",
        e.title,
        chips.join(", ")
    )
    .unwrap();
    writeln!(out, "{derive}").unwrap();
    if l.tuple {
        writeln!(out, "pub struct {}(pub {});", e.name, l.fields[0].ty.text()).unwrap();
    } else {
        writeln!(out, "pub struct {} {{", e.name).unwrap();
        for f in &l.fields {
            let bits = if f.low == f.high {
                format!("bit {}", f.low)
            } else {
                format!("bits {}..={}", f.low, f.high)
            };
            let word = if matches!(l.shape, Shape::Words(_)) {
                format!("dword {}, ", f.word)
            } else {
                String::new()
            };
            let shr = if f.shr > 0 {
                format!(", stored >> {}", f.shr)
            } else {
                String::new()
            };
            writeln!(out, "    /// `{}`: {word}{bits}{shr}.", f.xml).unwrap();
            writeln!(out, "    pub {}: {},", f.rust, f.ty.text()).unwrap();
        }
        writeln!(out, "}}").unwrap();
    }
    writeln!(out, "impl {} {{", e.name).unwrap();
    writeln!(out, "    pub const NAME: &'static str = {:?};", e.title).unwrap();
    match &l.shape {
        Shape::Words(n) => {
            writeln!(out, "    pub const DWORDS: usize = {n};").unwrap();
            let words: Vec<String> = (0..*n)
                .map(|w| {
                    let in_word: Vec<&ApiField> = l.fields.iter().filter(|f| f.word == w).collect();
                    format!("({}) as u32", or_of(&in_word))
                })
                .collect();
            emit_packing(
                out,
                &l.fields,
                &raw,
                &format!("[{}]", words.join(", ")),
                "The descriptor's dwords",
            );
            writeln!(out, "    #[allow(clippy::all)]").unwrap();
            writeln!(out, "    pub fn from_raw(raw: &{raw}) -> Self {{").unwrap();
            writeln!(out, "        Self {{").unwrap();
            for f in &l.fields {
                writeln!(
                    out,
                    "            {}: {},",
                    f.rust,
                    unpack_expr(f, &format!("u64::from(raw[{}])", f.word))
                )
                .unwrap();
            }
            writeln!(out, "        }}\n    }}").unwrap();
        }
        _ => {
            let all: Vec<&ApiField> = l.fields.iter().collect();
            let body = if raw == "u64" {
                or_of(&all)
            } else {
                format!("({}) as {raw}", or_of(&all))
            };
            emit_packing(out, &l.fields, &raw, &body, "The raw value");
            writeln!(out, "    #[allow(clippy::all)]").unwrap();
            writeln!(out, "    pub fn from_raw(raw: {raw}) -> Self {{").unwrap();
            writeln!(out, "        let raw = u64::from(raw);").unwrap();
            if l.tuple {
                writeln!(out, "        Self({})", unpack_expr(&l.fields[0], "raw")).unwrap();
            } else {
                writeln!(out, "        Self {{").unwrap();
                for f in &l.fields {
                    writeln!(out, "            {}: {},", f.rust, unpack_expr(f, "raw")).unwrap();
                }
                writeln!(out, "        }}").unwrap();
            }
            writeln!(out, "    }}").unwrap();
        }
    }
    if let Some((_, Place::Packet { domain, dword })) = places.first() {
        writeln!(
            out,
            "    /// The packet whose payload this dword is part of."
        )
        .unwrap();
        writeln!(out, "    pub const PACKET: &'static str = {domain:?};").unwrap();
        writeln!(
            out,
            "    /// Its position in the payload (in the first group, for repeated groups)."
        )
        .unwrap();
        writeln!(out, "    pub const DWORD: u32 = {dword};").unwrap();
    }
    if let Some((_, Place::Descriptor { domain })) = places.first() {
        writeln!(out, "    pub const DOMAIN: &'static str = {domain:?};").unwrap();
    }
    writeln!(out, "}}").unwrap();

    // Register offsets per chip.
    let Some((_, Place::Reg { array, .. })) = places.first() else {
        return;
    };
    let is64 = l.shape == Shape::Reg64;
    if *array {
        writeln!(out, "impl crate::regs::ArrayRegister for {} {{", e.name).unwrap();
        writeln!(
            out,
            "    const NAME: &'static str = {:?};\n    const IS_64: bool = {is64};",
            e.title
        )
        .unwrap();
        writeln!(
            out,
            "    #[inline]\n    fn layout(chip: crate::Chip) -> Option<(u32, u32, u32)> {{\n        match chip {{"
        )
        .unwrap();
        for (c, p) in places {
            if let Place::Reg {
                offset,
                stride,
                length,
                ..
            } = p
            {
                writeln!(
                    out,
                    "            {} => Some(({offset:#x}, {stride}, {length})),",
                    chip_arm(*c)
                )
                .unwrap();
            }
        }
        if places.len() < 2 {
            writeln!(out, "            _ => None,").unwrap();
        }
        writeln!(out, "        }}\n    }}").unwrap();
    } else {
        writeln!(out, "impl crate::regs::Register for {} {{", e.name).unwrap();
        writeln!(
            out,
            "    const NAME: &'static str = {:?};\n    const IS_64: bool = {is64};",
            e.title
        )
        .unwrap();
        writeln!(
            out,
            "    #[inline]\n    fn offset(chip: crate::Chip) -> Option<u32> {{\n        match chip {{"
        )
        .unwrap();
        for (c, p) in places {
            if let Place::Reg { offset, .. } = p {
                writeln!(out, "            {} => Some({offset:#x}),", chip_arm(*c)).unwrap();
            }
        }
        if places.len() < 2 {
            writeln!(out, "            _ => None,").unwrap();
        }
        writeln!(out, "        }}\n    }}").unwrap();
    }
    let widen = if is64 { "" } else { ".map(u64::from)" };
    writeln!(out, "    #[inline(always)]\n    fn try_raw(&self) -> Result<u64, crate::encode::FieldError> {{\n        self.try_to_raw(){widen}\n    }}").unwrap();
    writeln!(out, "}}").unwrap();
}

/// Groups per-chip entries by struct name and writes shared structs at the
/// top and chip-specific ones in `a6xx` / `a7xx` submodules.
fn emit_grouped(per_chip: &[(Chips, Vec<Entry>)]) -> String {
    let mut names: Vec<String> = Vec::new();
    let mut by_name: BTreeMap<String, Vec<(Chips, Entry)>> = BTreeMap::new();
    for (chip, entries) in per_chip {
        for e in entries {
            if !by_name.contains_key(&e.name) {
                names.push(e.name.clone());
            }
            by_name
                .entry(e.name.clone())
                .or_default()
                .push((*chip, e.clone()));
        }
    }
    let mut top = String::new();
    let mut modules: BTreeMap<&str, String> = BTreeMap::new();
    for name in &names {
        let defs = &by_name[name];
        let same = defs.windows(2).all(|w| w[0].1.layout == w[1].1.layout);
        if same {
            let places: Vec<(Chips, Place)> =
                defs.iter().map(|(c, e)| (*c, e.place.clone())).collect();
            emit_struct(&mut top, &defs[0].1, &places, "");
            for (c, _) in defs {
                let m = modules
                    .entry(if *c == Chips::A6XX { "a6xx" } else { "a7xx" })
                    .or_default();
                writeln!(m, "pub use super::{name};").unwrap();
            }
        } else {
            for (c, e) in defs {
                let (module, note) = if *c == Chips::A6XX {
                    ("a6xx", ", a6xx layout")
                } else {
                    ("a7xx", ", a7xx layout")
                };
                let m = modules.entry(module).or_default();
                emit_struct(m, e, &[(*c, e.place.clone())], note);
            }
        }
    }
    for (module, body) in modules {
        writeln!(
            top,
            "/// Every struct of this kind that exists on {module}, with its {module} layout."
        )
        .unwrap();
        writeln!(top, "pub mod {module} {{\n{body}}}").unwrap();
    }
    top
}

pub fn registers(db: &Db) -> Result<String, String> {
    let dom = db
        .domains
        .iter()
        .find(|d| d.name == "A6XX")
        .ok_or("no A6XX domain")?;
    let mut per_chip = Vec::new();
    for (chip, _) in Chips::each() {
        per_chip.push((chip, register_entries(db, dom, chip)?));
    }
    Ok(emit_grouped(&per_chip))
}

pub fn packets(db: &Db) -> Result<String, String> {
    let mut per_chip = Vec::new();
    for (chip, _) in Chips::each() {
        let mut entries = Vec::new();
        for dom in db.domains.iter().filter(|d| d.name.starts_with("CP_")) {
            entries
                .extend(packet_entries(db, dom, chip).map_err(|e| format!("{}: {e}", dom.name))?);
        }
        per_chip.push((chip, entries));
    }
    Ok(emit_grouped(&per_chip))
}

/// The descriptor domains and the struct names they get.
pub const DESCRIPTORS: &[(&str, &str)] = &[
    ("A6XX_TEX_CONST", "TextureDescriptor"),
    ("A6XX_TEX_SAMP", "SamplerDescriptor"),
    ("A6XX_UBO", "UboDescriptor"),
];

pub fn descriptors(db: &Db) -> Result<String, String> {
    let mut per_chip = Vec::new();
    for (chip, _) in Chips::each() {
        let mut entries = Vec::new();
        for (dom_name, name) in DESCRIPTORS {
            let dom = db
                .domains
                .iter()
                .find(|d| d.name == *dom_name)
                .ok_or(format!("no {dom_name} domain"))?;
            entries.push(descriptor_entry(db, dom, name, chip)?);
        }
        per_chip.push((chip, entries));
    }
    Ok(emit_grouped(&per_chip))
}

pub fn enums(db: &Db) -> Result<String, String> {
    let mut out = String::new();
    for e in &db.enums {
        if e.inline {
            continue;
        }
        let ty = camel(&e.name);
        writeln!(
            out,
            "/// Values of `{}`; unknown values are kept as they are.",
            e.name
        )
        .unwrap();
        writeln!(
            out,
            "#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]"
        )
        .unwrap();
        writeln!(out, "pub struct {ty}(pub u32);").unwrap();
        writeln!(out, "#[allow(non_upper_case_globals)]\nimpl {ty} {{").unwrap();
        let mut seen: Vec<(String, u64)> = Vec::new();
        for v in &e.values {
            let mut name = v.name.clone();
            if name.starts_with(|c: char| c.is_ascii_digit()) {
                name = format!("V{name}");
            }
            if let Some((_, val)) = seen.iter().find(|(n, _)| *n == name) {
                if *val == v.value {
                    continue;
                }
                return Err(format!("enum {}: {} has two values", e.name, v.name));
            }
            let on = match v.cond.chips {
                Chips::A6XX => " (a6xx only)",
                Chips::A7XX => " (a7xx only)",
                _ => "",
            };
            writeln!(out, "    /// `{}`{on}", v.name).unwrap();
            writeln!(out, "    pub const {name}: Self = Self({:#x});", v.value).unwrap();
            seen.push((name, v.value));
        }
        writeln!(out, "    /// The enum's entry in the runtime table.").unwrap();
        writeln!(
            out,
            "    pub fn info() -> &'static crate::table::EnumInfo {{ &crate::table::{} }}",
            enum_static(&e.name)
        )
        .unwrap();
        writeln!(
            out,
            "    /// The value's name on `chip` (`None` for a value the database does not name)."
        )
        .unwrap();
        writeln!(
            out,
            "    pub fn name(self, chip: crate::Chip) -> Option<&'static str> {{ Self::info().name_of(chip, u64::from(self.0)) }}"
        )
        .unwrap();
        writeln!(out, "}}").unwrap();
    }
    Ok(out)
}
