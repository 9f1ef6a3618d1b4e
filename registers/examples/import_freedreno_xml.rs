//! Derives `registers/db/*.regs` from Mesa's freedreno register XML.
//!
//! Run by hand when the reference XML changes:
//!
//! ```text
//! cargo run -p parsnip-registers --example import-freedreno-xml -- \
//!     ../shared/reference/registers registers/db
//! ```
//!
//! It keeps what a6xx and a7xx need (see `registers/README.md`): every
//! enum and bitset of `adreno_common.xml`, `adreno_pm4.xml` and `a6xx.xml`,
//! the A6XX register domain, the texture/sampler/UBO descriptor domains and
//! every PM4 packet domain. Variants on the `chip` selector are resolved to
//! our two chips (`chips=a6xx|a7xx`, or nothing when both); items that exist
//! on neither are dropped; stripes that only select chips are flattened into
//! their members. Documentation text is not carried over.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use roxmltree::Node;

/// The order of the `chip` selector's values in `adreno_common.xml`, which
/// variant ranges such as `A5XX-` or `A2XX-A6XX` are taken over.
struct Varsets {
    enums: HashMap<String, Vec<String>>,
}

impl Varsets {
    /// The variant names of `varset` that `spec` (e.g. `A5XX-`,
    /// `A2XX-A4XX A6XX`) selects.
    fn select(&self, varset: &str, spec: &str) -> Result<Vec<String>, String> {
        let all = self
            .enums
            .get(varset)
            .ok_or_else(|| format!("variants on unknown selector `{varset}`"))?;
        let index = |name: &str| {
            all.iter()
                .position(|v| v == name)
                .ok_or_else(|| format!("`{name}` is not a value of `{varset}`"))
        };
        let mut chosen = vec![false; all.len()];
        for token in spec.split_whitespace() {
            if let Some(split) = token.find(['-', ':']) {
                let (first, rest) = token.split_at(split);
                let inclusive = rest.starts_with('-');
                let second = &rest[1..];
                let lo = if first.is_empty() { 0 } else { index(first)? };
                let hi = if second.is_empty() {
                    all.len()
                } else {
                    index(second)? + usize::from(inclusive)
                };
                for c in &mut chosen[lo..hi] {
                    *c = true;
                }
            } else {
                chosen[index(token)?] = true;
            }
        }
        Ok(all
            .iter()
            .zip(chosen)
            .filter(|(_, c)| *c)
            .map(|(n, _)| n.clone())
            .collect())
    }
}

/// What an element inherits from its parents for variant resolution.
#[derive(Clone, Default)]
struct Scope {
    varset: Option<String>,
    prefix_enum: Option<String>,
}

struct Importer {
    varsets: Varsets,
    out: String,
    /// Enums and bitsets found inside domains, written before the domain.
    hoisted: String,
}

fn num(s: &str) -> Result<u64, String> {
    let r = if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(h, 16)
    } else {
        s.parse()
    };
    r.map_err(|_| format!("bad number `{s}`"))
}

/// Writes a number the way the XML wrote it (hex stays hex).
fn num_text(s: &str) -> Result<String, String> {
    let v = num(s)?;
    Ok(if s.contains(['x', 'X']) {
        format!("{v:#x}")
    } else {
        v.to_string()
    })
}

fn tag<'a>(n: &Node<'a, '_>) -> &'a str {
    n.tag_name().name()
}

fn pad(depth: usize) -> String {
    "  ".repeat(depth)
}

impl Importer {
    /// Resolves an element's own variant condition. Returns `None` when the
    /// element exists on neither chip.
    fn cond(&self, n: &Node, parent: &Scope) -> Result<(Option<String>, Scope), String> {
        let mut scope = Scope {
            varset: None,
            prefix_enum: parent.prefix_enum.clone(),
        };
        if let Some(p) = n.attribute("prefix") {
            scope.prefix_enum = if self.varsets.enums.contains_key(p) {
                Some(p.to_string())
            } else {
                None
            };
        }
        // As rnn does: a selector named by `prefix` stops the parent's
        // `varset` from being inherited.
        scope.varset = match n.attribute("varset") {
            Some(v) => Some(v.to_string()),
            None if scope.prefix_enum.is_none() => parent.varset.clone(),
            None => None,
        };
        let Some(spec) = n.attribute("variants") else {
            return Ok((Some(String::new()), scope));
        };
        let varset = scope
            .varset
            .clone()
            .or_else(|| scope.prefix_enum.clone())
            .ok_or_else(|| {
                format!(
                    "variants=\"{spec}\" without a selector on {:?}",
                    n.attribute("name")
                )
            })?;
        let chosen = self.varsets.select(&varset, spec)?;
        if varset == "chip" {
            let a6 = chosen.iter().any(|c| c == "A6XX");
            let a7 = chosen.iter().any(|c| c == "A7XX");
            Ok(match (a6, a7) {
                (true, true) => (Some(String::new()), scope),
                (true, false) => (Some(" chips=a6xx".into()), scope),
                (false, true) => (Some(" chips=a7xx".into()), scope),
                (false, false) => (None, scope),
            })
        } else {
            Ok((Some(format!(" when={varset}:{}", chosen.join(","))), scope))
        }
    }

    fn typeattrs(&self, n: &Node) -> Result<String, String> {
        let mut s = String::new();
        if let Some(t) = n.attribute("type") {
            write!(s, " type={t}").unwrap();
        }
        for key in ["shr", "radix", "align"] {
            if let Some(v) = n.attribute(key) {
                write!(s, " {key}={}", num(v)?).unwrap();
            }
        }
        if n.attribute("addvariant")
            .is_some_and(|v| matches!(v, "yes" | "1" | "true"))
        {
            s.push_str(" addvariant");
        }
        Ok(s)
    }

    fn values(
        &mut self,
        n: &Node,
        scope: &Scope,
        depth: usize,
        out: &mut String,
    ) -> Result<(), String> {
        for v in n.children().filter(|c| tag(c) == "value") {
            let Some(value) = v.attribute("value") else {
                continue;
            };
            let (Some(cond), _) = self.cond(&v, scope)? else {
                continue;
            };
            let name = v.attribute("name").ok_or("nameless value")?;
            writeln!(out, "{}value {} {name}{cond}", pad(depth), num_text(value)?).unwrap();
        }
        Ok(())
    }

    fn bitfields(
        &mut self,
        n: &Node,
        scope: &Scope,
        depth: usize,
        out: &mut String,
    ) -> Result<(), String> {
        for f in n.children().filter(|c| tag(c) == "bitfield") {
            let (Some(cond), fscope) = self.cond(&f, scope)? else {
                continue;
            };
            let name = f.attribute("name").ok_or("nameless bitfield")?;
            let (low, high) = match (f.attribute("pos"), f.attribute("low"), f.attribute("high")) {
                (Some(p), _, _) => (num(p)?, num(p)?),
                (None, Some(l), Some(h)) => (num(l)?, num(h)?),
                _ => return Err(format!("bitfield {name} has no placement")),
            };
            let bits = if low == high {
                low.to_string()
            } else {
                format!("{low}-{high}")
            };
            writeln!(
                out,
                "{}field {bits} {name}{}{cond}",
                pad(depth),
                self.typeattrs(&f)?
            )
            .unwrap();
            self.values(&f, &fscope, depth + 1, out)?;
        }
        Ok(())
    }

    fn enum_(&mut self, n: &Node, parent: &Scope) -> Result<String, String> {
        let mut out = String::new();
        let (_, scope) = self.cond(n, parent)?;
        let name = n.attribute("name").ok_or("nameless enum")?;
        let inline = if n.attribute("inline") == Some("yes") {
            " inline"
        } else {
            ""
        };
        writeln!(out, "enum {name}{inline}").unwrap();
        self.values(n, &scope, 1, &mut out)?;
        Ok(out)
    }

    fn bitset(&mut self, n: &Node, parent: &Scope) -> Result<String, String> {
        let mut out = String::new();
        let (_, mut scope) = self.cond(n, parent)?;
        let name = n.attribute("name").ok_or("nameless bitset")?;
        let inline = if n.attribute("inline") == Some("yes") {
            " inline"
        } else {
            ""
        };
        // rnn resolves an inline bitset's variants where a register uses it;
        // every register that uses one selects on `chip`.
        if !inline.is_empty() && scope.varset.is_none() {
            scope.varset = Some("chip".into());
        }
        writeln!(out, "bitset {name}{inline}").unwrap();
        self.bitfields(n, &scope, 1, &mut out)?;
        Ok(out)
    }

    /// Writes a domain's elements. `extra` is a chip condition a flattened
    /// stripe passes to its members.
    fn elems(
        &mut self,
        n: &Node,
        scope: &Scope,
        depth: usize,
        extra: &str,
        out: &mut String,
    ) -> Result<(), String> {
        for e in n.children().filter(|c| c.is_element()) {
            match tag(&e) {
                "enum" => {
                    let text = self.enum_(&e, &Scope::default())?;
                    self.hoisted.push_str(&text);
                }
                "bitset" => {
                    let text = self.bitset(&e, &Scope::default())?;
                    self.hoisted.push_str(&text);
                }
                "reg32" | "reg64" => {
                    let (Some(cond), escope) = self.cond(&e, scope)? else {
                        continue;
                    };
                    let Some(cond) = merge_chips(&cond, extra) else {
                        continue;
                    };
                    let name = e.attribute("name").ok_or("nameless register")?;
                    let offset = num_text(e.attribute("offset").ok_or("register without offset")?)?;
                    let width = if tag(&e) == "reg32" { 32 } else { 64 };
                    let mut line = format!("{}{} {offset} {name}", pad(depth), tag(&e));
                    let bits = match (e.attribute("pos"), e.attribute("low"), e.attribute("high")) {
                        (Some(p), _, _) => Some((num(p)?, num(p)?)),
                        (None, l, h) if l.is_some() || h.is_some() => Some((
                            l.map(num).transpose()?.unwrap_or(0),
                            h.map(num).transpose()?.unwrap_or(width - 1),
                        )),
                        _ => None,
                    };
                    if let Some((l, h)) = bits {
                        if l == h {
                            write!(line, " bits={l}").unwrap();
                        } else {
                            write!(line, " bits={l}-{h}").unwrap();
                        }
                    }
                    line.push_str(&self.typeattrs(&e)?);
                    for key in ["length", "stride"] {
                        if let Some(v) = e.attribute(key) {
                            write!(line, " {key}={}", num(v)?).unwrap();
                        }
                    }
                    if let Some(u) = e.attribute("usage") {
                        write!(line, " usage={}", u.replace(' ', "")).unwrap();
                    }
                    writeln!(out, "{line}{cond}").unwrap();
                    // Enums declared inside a register are global too.
                    for inner in e.descendants().filter(|d| tag(d) == "enum") {
                        let text = self.enum_(&inner, &Scope::default())?;
                        self.hoisted.push_str(&text);
                    }
                    self.bitfields(&e, &escope, depth + 1, out)?;
                    self.values(&e, &escope, depth + 1, out)?;
                }
                "array" => {
                    let (Some(cond), escope) = self.cond(&e, scope)? else {
                        continue;
                    };
                    let Some(cond) = merge_chips(&cond, extra) else {
                        continue;
                    };
                    // A nameless array (a packet's repeated group) is written `-`.
                    let name = e.attribute("name").unwrap_or("-");
                    let offset = num_text(e.attribute("offset").ok_or("array without offset")?)?;
                    let stride = num(e.attribute("stride").ok_or("array without stride")?)?;
                    let length = num(e.attribute("length").ok_or("array without length")?)?;
                    let usage = e
                        .attribute("usage")
                        .map(|u| format!(" usage={}", u.replace(' ', "")))
                        .unwrap_or_default();
                    writeln!(
                        out,
                        "{}array {offset} {name} stride={stride} length={length}{usage}{cond}",
                        pad(depth)
                    )
                    .unwrap();
                    self.elems(&e, &escope, depth + 1, "", out)?;
                }
                "stripe" => {
                    let (Some(cond), escope) = self.cond(&e, scope)? else {
                        continue;
                    };
                    let Some(cond) = merge_chips(&cond, extra) else {
                        continue;
                    };
                    if cond.contains("when=") {
                        writeln!(out, "{}stripe{cond}", pad(depth)).unwrap();
                        self.elems(&e, &escope, depth + 1, "", out)?;
                    } else {
                        // A stripe that only selects chips: its members
                        // carry the condition themselves.
                        self.elems(&e, &escope, depth, &cond, out)?;
                    }
                }
                "doc" | "brief" => {}
                other => return Err(format!("unexpected <{other}> in a domain")),
            }
        }
        Ok(())
    }

    fn domain(&mut self, n: &Node) -> Result<(), String> {
        let (Some(cond), scope) = self.cond(n, &Scope::default())? else {
            return Ok(());
        };
        let name = n.attribute("name").ok_or("nameless domain")?;
        let width = n.attribute("width").unwrap_or("32");
        let mut body = String::new();
        self.elems(n, &scope, 1, &cond, &mut body)?;
        let hoisted = std::mem::take(&mut self.hoisted);
        self.out.push_str(&hoisted);
        writeln!(self.out, "domain {name} width={width}").unwrap();
        self.out.push_str(&body);
        Ok(())
    }
}

/// Combines an element's own chip condition with one passed down from a
/// flattened stripe; `None` when the two leave no chip.
fn merge_chips(own: &str, extra: &str) -> Option<String> {
    let chip_of = |s: &str| {
        if s.contains("chips=a6xx") {
            1
        } else if s.contains("chips=a7xx") {
            2
        } else {
            3
        }
    };
    let chips = chip_of(own) & chip_of(extra);
    let rest: String = own
        .split(' ')
        .filter(|w| !w.is_empty() && !w.starts_with("chips="))
        .map(|w| format!(" {w}"))
        .collect();
    match chips {
        0 => None,
        1 => Some(format!(" chips=a6xx{rest}")),
        2 => Some(format!(" chips=a7xx{rest}")),
        _ => Some(rest),
    }
}

/// The domains taken from each file; `None` takes every domain.
const FILES: &[(&str, Option<&[&str]>)] = &[
    ("adreno_common", Some(&[])),
    ("adreno_pm4", None),
    (
        "a6xx",
        Some(&["A6XX", "A6XX_TEX_SAMP", "A6XX_TEX_CONST", "A6XX_UBO"]),
    ),
];

fn collect_enums(doc: &roxmltree::Document, into: &mut HashMap<String, Vec<String>>) {
    for e in doc.descendants().filter(|n| tag(n) == "enum") {
        if let Some(name) = e.attribute("name") {
            let values = into.entry(name.to_string()).or_default();
            values.extend(
                e.children()
                    .filter(|c| tag(c) == "value")
                    .filter_map(|v| v.attribute("name"))
                    .map(str::to_string),
            );
        }
    }
}

fn run(xml_dir: &Path, out_dir: &Path) -> Result<(), String> {
    let read = |name: &str| {
        let path = xml_dir.join("adreno").join(format!("{name}.xml"));
        std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))
    };
    let texts: Vec<(&str, String)> = FILES
        .iter()
        .map(|(f, _)| read(f).map(|t| (*f, t)))
        .collect::<Result<_, _>>()?;
    let docs: Vec<roxmltree::Document> = texts
        .iter()
        .map(|(f, t)| roxmltree::Document::parse(t).map_err(|e| format!("{f}.xml: {e}")))
        .collect::<Result<_, _>>()?;
    let mut enums = HashMap::new();
    for doc in &docs {
        collect_enums(doc, &mut enums);
    }
    for ((file, domains), doc) in FILES.iter().zip(&docs) {
        let mut imp = Importer {
            varsets: Varsets {
                enums: enums.clone(),
            },
            out: String::new(),
            hoisted: String::new(),
        };
        writeln!(
            imp.out,
            "# Derived from Mesa's freedreno register database ({file}.xml; MIT, (c) Rob Clark\n\
             # and contributors) by examples/import_freedreno_xml.rs. Do not edit by hand:\n\
             # re-run the importer. Format: codegen/source.rs and registers/README.md."
        )
        .unwrap();
        for n in doc.root_element().children().filter(|c| c.is_element()) {
            let what = || format!("{file}.xml line {}", doc.text_pos_at(n.range().start).row);
            match tag(&n) {
                "enum" => {
                    let text = imp
                        .enum_(&n, &Scope::default())
                        .map_err(|e| format!("{}: {e}", what()))?;
                    imp.out.push_str(&text);
                }
                "bitset" => {
                    let text = imp
                        .bitset(&n, &Scope::default())
                        .map_err(|e| format!("{}: {e}", what()))?;
                    imp.out.push_str(&text);
                }
                "domain" => {
                    let name = n.attribute("name").unwrap_or("");
                    if domains.is_none_or(|d| d.contains(&name)) {
                        imp.domain(&n).map_err(|e| format!("{}: {e}", what()))?;
                    } else {
                        // Enums declared inside skipped domains stay global.
                        for e in n.children().filter(|c| tag(c) == "enum") {
                            let text = imp.enum_(&e, &Scope::default())?;
                            imp.out.push_str(&text);
                        }
                    }
                }
                _ => {}
            }
        }
        let path: PathBuf = out_dir.join(format!("{file}.regs"));
        std::fs::write(&path, imp.out).map_err(|e| format!("{}: {e}", path.display()))?;
        eprintln!("wrote {}", path.display());
    }
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 3 {
        eprintln!("usage: import-freedreno-xml <dir holding adreno/*.xml> <output db dir>");
        std::process::exit(2);
    }
    if let Err(e) = run(Path::new(&args[1]), Path::new(&args[2])) {
        eprintln!("import-freedreno-xml: {e}");
        std::process::exit(1);
    }
}
