//! The register database's text source (`db/*.regs`): its data model and
//! its parser. Used by `build.rs` only; the crate itself ships what the build
//! generates from it.
//!
//! The format is line based. Indentation (two spaces a level) nests an item
//! under the one above it; `#` starts a comment. Every item is a keyword, its
//! positional words, then `key=value` attributes:
//!
//! ```text
//! enum a6xx_tile_mode
//!   0x0 TILE6_LINEAR
//! bitset a6xx_reg_xy inline
//!   field 0-15 X type=uint
//! domain A6XX width=32
//!   reg32 0x8822 BUF_INFO chips=a6xx usage=rp_blit
//!     field 0-7 COLOR_FORMAT type=a6xx_format
//!   array 0x8820 RB_MRT stride=8 length=8   (a nameless array is `-`)
//!   stripe when=compare_mode:PRED_TEST
//! ```
//!
//! `chips=` limits an item to some of the chips (a6xx, a7xx; absent means
//! both), `when=VARSET:V1,V2` to some values of a selector field decoded
//! earlier in the same packet (see `addvariant`).

use std::fmt;

/// A set of chips an item exists on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Chips(pub u8);

impl Chips {
    pub const A6XX: Chips = Chips(1);
    pub const A7XX: Chips = Chips(2);
    pub const ALL: Chips = Chips(3);

    pub fn contains(self, other: Chips) -> bool {
        self.0 & other.0 == other.0
    }
    pub fn each() -> [(Chips, &'static str); 2] {
        [(Chips::A6XX, "a6xx"), (Chips::A7XX, "a7xx")]
    }
}

/// A condition on a selector decoded earlier in a packet.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct When {
    pub varset: String,
    pub variants: Vec<String>,
}

/// Where an item exists: which chips, and under which selector values.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cond {
    pub chips: Chips,
    pub when: Option<When>,
}

impl Default for Cond {
    fn default() -> Self {
        Cond {
            chips: Chips::ALL,
            when: None,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Value {
    pub value: u64,
    pub name: String,
    pub cond: Cond,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Enum {
    pub name: String,
    pub inline: bool,
    pub values: Vec<Value>,
}

/// How a value (a whole register or one bitfield) is laid out and typed.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct TypeInfo {
    pub low: u32,
    pub high: u32,
    /// The type name as the source gives it (`uint`, an enum or bitset
    /// name, ...), `None` when untyped.
    pub ty: Option<String>,
    pub shr: u32,
    pub radix: Option<u32>,
    pub align: Option<u32>,
    pub addvariant: bool,
    pub fields: Vec<Field>,
    pub values: Vec<Value>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    pub name: String,
    pub ti: TypeInfo,
    pub cond: Cond,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Bitset {
    pub name: String,
    pub inline: bool,
    pub fields: Vec<Field>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ElemKind {
    Reg { width: u32, ti: TypeInfo },
    Array,
    Stripe,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Elem {
    pub kind: ElemKind,
    /// Empty for stripes.
    pub name: String,
    pub offset: u32,
    pub length: u32,
    pub stride: u32,
    pub usage: Option<String>,
    pub cond: Cond,
    pub children: Vec<Elem>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Domain {
    pub name: String,
    pub width: u32,
    pub elems: Vec<Elem>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Db {
    pub enums: Vec<Enum>,
    pub bitsets: Vec<Bitset>,
    pub domains: Vec<Domain>,
}

#[derive(Debug)]
pub struct ParseError {
    pub file: String,
    pub line: usize,
    pub msg: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.msg)
    }
}

struct Line<'a> {
    number: usize,
    depth: usize,
    words: Vec<&'a str>,
}

struct Parser<'a> {
    file: &'a str,
    lines: Vec<Line<'a>>,
    pos: usize,
}

fn parse_num(s: &str) -> Option<u64> {
    if let Some(hex) = s.strip_prefix("0x") {
        u64::from_str_radix(hex, 16).ok()
    } else {
        s.parse().ok()
    }
}

impl<'a> Parser<'a> {
    fn err<T>(&self, line: usize, msg: impl Into<String>) -> Result<T, ParseError> {
        Err(ParseError {
            file: self.file.to_string(),
            line,
            msg: msg.into(),
        })
    }

    /// The index of the next line when it is a child at `depth`.
    fn peek_child(&self, depth: usize) -> Option<usize> {
        self.lines
            .get(self.pos)
            .filter(|l| l.depth == depth)
            .map(|_| self.pos)
    }

    fn attrs(&self, line: &Line<'a>, from: usize) -> Result<Attrs<'a>, ParseError> {
        let mut attrs = Attrs::default();
        for w in &line.words[from..] {
            match w.split_once('=') {
                Some((k, v)) => attrs.kv.push((k, v)),
                None => attrs.flags.push(w),
            }
        }
        attrs.line = line.number;
        Ok(attrs)
    }

    fn num(&self, line: usize, s: &str) -> Result<u64, ParseError> {
        match parse_num(s) {
            Some(v) => Ok(v),
            None => self.err(line, format!("bad number `{s}`")),
        }
    }

    fn cond(&self, attrs: &Attrs<'a>) -> Result<Cond, ParseError> {
        let mut cond = Cond::default();
        if let Some(chips) = attrs.get("chips") {
            cond.chips = match chips {
                "a6xx" => Chips::A6XX,
                "a7xx" => Chips::A7XX,
                other => return self.err(attrs.line, format!("unknown chip `{other}`")),
            };
        }
        if let Some(when) = attrs.get("when") {
            let Some((varset, variants)) = when.split_once(':') else {
                return self.err(attrs.line, format!("`when={when}` needs VARSET:VALUES"));
            };
            cond.when = Some(When {
                varset: varset.to_string(),
                variants: variants.split(',').map(str::to_string).collect(),
            });
        }
        Ok(cond)
    }

    fn value(&self, line: &Line<'a>) -> Result<Value, ParseError> {
        if line.words.len() < 3 {
            return self.err(line.number, "a value line is `value NUMBER NAME`");
        }
        let attrs = self.attrs(line, 3)?;
        Ok(Value {
            value: self.num(line.number, line.words[1])?,
            name: line.words[2].to_string(),
            cond: self.cond(&attrs)?,
        })
    }

    /// Reads `type= shr= radix= align= addvariant` into a type info.
    fn typeinfo(&self, attrs: &Attrs<'a>, ti: &mut TypeInfo) -> Result<(), ParseError> {
        ti.ty = attrs.get("type").map(str::to_string);
        if let Some(v) = attrs.get("shr") {
            ti.shr = self.num(attrs.line, v)? as u32;
        }
        if let Some(v) = attrs.get("radix") {
            ti.radix = Some(self.num(attrs.line, v)? as u32);
        }
        if let Some(v) = attrs.get("align") {
            ti.align = Some(self.num(attrs.line, v)? as u32);
        }
        ti.addvariant = attrs.flag("addvariant");
        Ok(())
    }

    fn bits(&self, line: usize, s: &str) -> Result<(u32, u32), ParseError> {
        let (lo, hi) = s.split_once('-').unwrap_or((s, s));
        let lo = self.num(line, lo)? as u32;
        let hi = self.num(line, hi)? as u32;
        if hi < lo || hi > 63 {
            return self.err(line, format!("bad bit range `{s}`"));
        }
        Ok((lo, hi))
    }

    fn field(&mut self, line_idx: usize) -> Result<Field, ParseError> {
        let line = &self.lines[line_idx];
        if line.words.len() < 3 {
            return self.err(line.number, "a field line is `field LOW-HIGH NAME ...`");
        }
        let attrs = self.attrs(line, 3)?;
        let (low, high) = self.bits(line.number, line.words[1])?;
        let mut ti = TypeInfo {
            low,
            high,
            ..Default::default()
        };
        self.typeinfo(&attrs, &mut ti)?;
        let name = line.words[2].to_string();
        let cond = self.cond(&attrs)?;
        let depth = line.depth;
        self.type_children(depth + 1, &mut ti)?;
        Ok(Field { name, ti, cond })
    }

    /// Nested `field` and `value` lines of a register or a field.
    fn type_children(&mut self, depth: usize, ti: &mut TypeInfo) -> Result<(), ParseError> {
        while let Some(idx) = self.peek_child(depth) {
            self.pos += 1;
            match self.lines[idx].words[0] {
                "field" => {
                    let f = self.field(idx)?;
                    ti.fields.push(f);
                }
                "value" => {
                    let v = self.value(&self.lines[idx])?;
                    ti.values.push(v);
                }
                other => {
                    return self.err(
                        self.lines[idx].number,
                        format!("`{other}` cannot appear inside a register or field"),
                    )
                }
            }
        }
        Ok(())
    }

    fn elem(&mut self) -> Result<Elem, ParseError> {
        let idx = self.pos;
        self.pos += 1;
        let line = &self.lines[idx];
        let number = line.number;
        let depth = line.depth;
        let kw = line.words[0];
        let mut elem = match kw {
            "reg32" | "reg64" => {
                if line.words.len() < 3 {
                    return self.err(number, format!("`{kw} OFFSET NAME ...`"));
                }
                let width = if kw == "reg32" { 32 } else { 64 };
                let attrs = self.attrs(line, 3)?;
                let mut ti = TypeInfo {
                    low: 0,
                    high: width - 1,
                    ..Default::default()
                };
                if let Some(bits) = attrs.get("bits") {
                    (ti.low, ti.high) = self.bits(number, bits)?;
                }
                self.typeinfo(&attrs, &mut ti)?;
                Elem {
                    kind: ElemKind::Reg { width, ti },
                    name: line.words[2].to_string(),
                    offset: self.num(number, line.words[1])? as u32,
                    length: attrs.num(self, "length")?.unwrap_or(1) as u32,
                    stride: attrs.num(self, "stride")?.unwrap_or(0) as u32,
                    usage: attrs.get("usage").map(str::to_string),
                    cond: self.cond(&attrs)?,
                    children: Vec::new(),
                }
            }
            "array" => {
                if line.words.len() < 3 {
                    return self.err(number, "`array OFFSET NAME stride=N length=N`");
                }
                let attrs = self.attrs(line, 3)?;
                let (Some(stride), Some(length)) =
                    (attrs.num(self, "stride")?, attrs.num(self, "length")?)
                else {
                    return self.err(number, "an array needs stride= and length=");
                };
                let name = match line.words[2] {
                    "-" => String::new(),
                    n => n.to_string(),
                };
                Elem {
                    kind: ElemKind::Array,
                    name,
                    offset: self.num(number, line.words[1])? as u32,
                    length: length as u32,
                    stride: stride as u32,
                    usage: attrs.get("usage").map(str::to_string),
                    cond: self.cond(&attrs)?,
                    children: Vec::new(),
                }
            }
            "stripe" => {
                let attrs = self.attrs(line, 1)?;
                Elem {
                    kind: ElemKind::Stripe,
                    name: String::new(),
                    offset: 0,
                    length: 1,
                    stride: 0,
                    usage: None,
                    cond: self.cond(&attrs)?,
                    children: Vec::new(),
                }
            }
            other => return self.err(number, format!("unknown item `{other}` in a domain")),
        };
        match &mut elem.kind {
            ElemKind::Reg { ti, .. } => self.type_children(depth + 1, ti)?,
            ElemKind::Array | ElemKind::Stripe => {
                while self.peek_child(depth + 1).is_some() {
                    let child = self.elem()?;
                    elem.children.push(child);
                }
            }
        }
        Ok(elem)
    }

    fn top(&mut self, db: &mut Db) -> Result<(), ParseError> {
        while self.pos < self.lines.len() {
            let idx = self.pos;
            let line = &self.lines[idx];
            if line.depth != 0 {
                return self.err(line.number, "unexpected indentation");
            }
            if line.words.len() < 2 {
                return self.err(line.number, "a top-level item needs a name");
            }
            let name = line.words[1].to_string();
            let attrs = self.attrs(line, 2)?;
            self.pos += 1;
            match line.words[0] {
                "enum" => {
                    let mut e = Enum {
                        name,
                        inline: attrs.flag("inline"),
                        values: Vec::new(),
                    };
                    while let Some(idx) = self.peek_child(1) {
                        let child = &self.lines[idx];
                        if child.words[0] != "value" {
                            return self.err(child.number, "an enum holds `value` lines only");
                        }
                        e.values.push(self.value(child)?);
                        self.pos += 1;
                    }
                    db.enums.push(e);
                }
                "bitset" => {
                    let mut ti = TypeInfo::default();
                    self.type_children(1, &mut ti)?;
                    db.bitsets.push(Bitset {
                        name,
                        inline: attrs.flag("inline"),
                        fields: ti.fields,
                    });
                }
                "domain" => {
                    let width = attrs.num(self, "width")?.unwrap_or(32) as u32;
                    let mut d = Domain {
                        name,
                        width,
                        elems: Vec::new(),
                    };
                    while self.peek_child(1).is_some() {
                        let e = self.elem()?;
                        d.elems.push(e);
                    }
                    db.domains.push(d);
                }
                other => return self.err(line.number, format!("unknown top-level item `{other}`")),
            }
        }
        Ok(())
    }
}

#[derive(Default)]
struct Attrs<'a> {
    line: usize,
    kv: Vec<(&'a str, &'a str)>,
    flags: Vec<&'a str>,
}

impl<'a> Attrs<'a> {
    fn get(&self, key: &str) -> Option<&'a str> {
        self.kv.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
    }
    fn flag(&self, name: &str) -> bool {
        self.flags.contains(&name)
    }
    fn num(&self, p: &Parser<'_>, key: &str) -> Result<Option<u64>, ParseError> {
        self.get(key).map(|v| p.num(self.line, v)).transpose()
    }
}

/// Parses one `.regs` file into `db` (files are merged in the order given).
pub fn parse_into(db: &mut Db, file: &str, text: &str) -> Result<(), ParseError> {
    let mut lines = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let body = raw.split('#').next().unwrap_or("");
        if body.trim().is_empty() {
            continue;
        }
        let indent = body.len() - body.trim_start_matches(' ').len();
        if body[indent..].starts_with('\t') || indent % 2 != 0 {
            return Err(ParseError {
                file: file.to_string(),
                line: i + 1,
                msg: "indent with two spaces a level".into(),
            });
        }
        lines.push(Line {
            number: i + 1,
            depth: indent / 2,
            words: body.split_whitespace().collect(),
        });
    }
    let mut p = Parser {
        file,
        lines,
        pos: 0,
    };
    p.top(db)
}
