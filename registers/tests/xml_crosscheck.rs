//! Cross-check of the generated runtime table against Mesa's freedreno XML
//! (`reference/registers/adreno/*.xml`), parsed here anew with its own
//! reading of the variant rules, independent of the importer: for a6xx and
//! a7xx, every register of the A6XX domain, of the descriptor domains and of
//! every PM4 payload domain (offset, width, array stride and length), every
//! bitfield (bit range, shift, radix, type), every enum value, and every
//! PM4 opcode must be equal.

use std::collections::BTreeMap;

use parsnip_registers::table::{self, Elem, ElemKind, Origin, TypeInfo};
use parsnip_registers::Chip;
use roxmltree::{Document, Node};

const CHIPS: &[&str] = &["A2XX", "A3XX", "A4XX", "A5XX", "A6XX", "A7XX"];

fn num(s: &str) -> u64 {
    match s.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16).unwrap(),
        None => s.parse().unwrap(),
    }
}

/// Whether a `variants` list on the `chip` selector includes `chip`.
fn chip_in(spec: &str, chip: Chip) -> bool {
    let me = CHIPS
        .iter()
        .position(|c| *c == chip.variant_name())
        .unwrap();
    spec.split_whitespace()
        .any(|tok| match tok.split_once('-') {
            None => tok == chip.variant_name(),
            Some((a, b)) => {
                let lo = CHIPS.iter().position(|c| *c == a).unwrap();
                let hi = if b.is_empty() {
                    CHIPS.len() - 1
                } else {
                    CHIPS.iter().position(|c| *c == b).unwrap()
                };
                (lo..=hi).contains(&me)
            }
        })
}

struct Xml<'a> {
    docs: Vec<Document<'a>>,
    chip: Chip,
}

fn tag<'a>(n: &Node<'a, '_>) -> &'a str {
    n.tag_name().name()
}

/// What an element's `variants` are taken over: its own `varset`, else the
/// nearest ancestor's, else `chip` (domains named with `prefix="chip"`, and
/// inline bitsets, which are resolved where a chip-selected register uses
/// them).
fn varset_of(n: Node) -> String {
    for a in n.ancestors() {
        if let Some(v) = a.attribute("varset") {
            return v.to_string();
        }
        if tag(&a) == "enum" || (tag(&a) == "bitset" && a.attribute("inline") != Some("yes")) {
            break;
        }
    }
    "chip".to_string()
}

/// `None` when absent on the chip; otherwise the selector condition
/// (`VARSET:V1,V2`) or an empty string.
fn cond(x: &Xml, n: Node) -> Option<String> {
    let Some(spec) = n.attribute("variants") else {
        return Some(String::new());
    };
    let varset = varset_of(n);
    if varset == "chip" {
        return chip_in(spec, x.chip).then(String::new);
    }
    // Expand the selector's named values the spec lists.
    let values: Vec<&str> = x
        .docs
        .iter()
        .flat_map(|d| d.descendants())
        .filter(|e| tag(e) == "enum" && e.attribute("name") == Some(varset.as_str()))
        .flat_map(|e| {
            e.children()
                .filter(|v| tag(v) == "value")
                .filter_map(|v| v.attribute("name"))
        })
        .collect();
    let mut picked = Vec::new();
    for tok in spec.split_whitespace() {
        match tok.split_once('-') {
            None => picked.push(tok.to_string()),
            Some((a, b)) => {
                let lo = values.iter().position(|v| *v == a).unwrap();
                let hi = if b.is_empty() {
                    values.len() - 1
                } else {
                    values.iter().position(|v| *v == b).unwrap()
                };
                picked.extend(values[lo..=hi].iter().map(|v| v.to_string()));
            }
        }
    }
    Some(format!("{varset}:{}", picked.join(",")))
}

impl<'a> Xml<'a> {
    fn find(&self, kind: &str, name: &str) -> Option<Node<'_, 'a>> {
        self.docs
            .iter()
            .flat_map(|d| d.descendants())
            .find(|e| tag(e) == kind && e.attribute("name") == Some(name))
    }

    /// One fact per bitfield of a value, in the form the table gives too.
    fn fields(&self, n: Node, path: &str, out: &mut Vec<String>, when: &str) {
        let mut fields: Vec<Node> = n.children().filter(|c| tag(c) == "bitfield").collect();
        if let Some(t) = n.attribute("type") {
            if let Some(b) = self.find("bitset", t) {
                if b.attribute("inline") != Some("yes") {
                    fields.clear();
                }
                fields.extend(b.children().filter(|c| tag(c) == "bitfield"));
            }
        }
        for f in fields {
            let Some(c) = cond(self, f) else { continue };
            let (lo, hi) = match f.attribute("pos") {
                Some(p) => (num(p), num(p)),
                None => (
                    num(f.attribute("low").unwrap()),
                    num(f.attribute("high").unwrap()),
                ),
            };
            out.push(format!(
                "{path} field {} {lo}-{hi} type={} shr={} radix={} when={when}{c}",
                f.attribute("name").unwrap(),
                f.attribute("type").unwrap_or("-"),
                f.attribute("shr").map_or(0, num),
                f.attribute("radix").map_or(0, num),
            ));
        }
    }

    /// Facts for a domain's elements: registers with their layout, arrays
    /// with their stride and length, stripes with their condition.
    fn elems(&self, n: Node, path: &str, base: u64, when: &str, out: &mut Vec<String>) {
        for e in n.children().filter(|c| c.is_element()) {
            let Some(c) = cond(self, e) else { continue };
            let when = if c.is_empty() {
                when.to_string()
            } else {
                format!("{when}{c};")
            };
            match tag(&e) {
                "reg32" | "reg64" => {
                    let width = if tag(&e) == "reg32" { 32 } else { 64 };
                    let name = format!("{path}{}", e.attribute("name").unwrap());
                    let (lo, hi) =
                        match (e.attribute("pos"), e.attribute("low"), e.attribute("high")) {
                            (Some(p), _, _) => (num(p), num(p)),
                            (None, l, h) => (l.map_or(0, num), h.map_or(width - 1, num)),
                        };
                    out.push(format!(
                        "{name} @{:#x} w{width} len={} bits={lo}-{hi} type={} shr={} radix={} when={when}",
                        base + num(e.attribute("offset").unwrap()),
                        e.attribute("length").map_or(1, num),
                        e.attribute("type").unwrap_or("-"),
                        e.attribute("shr").map_or(0, num),
                        e.attribute("radix").map_or(0, num),
                    ));
                    self.fields(e, &name, out, &when);
                }
                "array" => {
                    let name = format!("{path}{}", e.attribute("name").unwrap_or(""));
                    let off = base + num(e.attribute("offset").unwrap());
                    out.push(format!(
                        "{name} array @{off:#x} stride={} len={} when={when}",
                        num(e.attribute("stride").unwrap()),
                        num(e.attribute("length").unwrap())
                    ));
                    self.elems(e, &format!("{name}."), 0, &when, out);
                }
                "stripe" => self.elems(e, path, base, &when, out),
                _ => {}
            }
        }
    }
}

fn table_fields(info: &TypeInfo, path: &str, chip: Chip, when: &str, out: &mut Vec<String>) {
    for f in info.fields {
        if !f.cond.on(chip) {
            continue;
        }
        let c = f
            .cond
            .when
            .as_ref()
            .map(|w| format!("{}:{}", w.varset, w.variants.join(",")))
            .unwrap_or_default();
        out.push(format!(
            "{path} field {} {}-{} type={} shr={} radix={} when={when}{c}",
            f.name,
            f.info.low,
            f.info.high,
            f.info.type_name.unwrap_or("-"),
            f.info.shr,
            f.info.radix
        ));
    }
}

fn table_elems(
    elems: &[Elem],
    path: &str,
    base: u32,
    chip: Chip,
    when: &str,
    out: &mut Vec<String>,
) {
    for e in elems.iter().filter(|e| e.cond.on(chip)) {
        let c = e
            .cond
            .when
            .as_ref()
            .map(|w| format!("{}:{};", w.varset, w.variants.join(",")))
            .unwrap_or_default();
        let when = format!("{when}{c}");
        match &e.kind {
            ElemKind::Reg { width, info } => {
                let name = format!("{path}{}", e.name);
                out.push(format!(
                    "{name} @{:#x} w{width} len={} bits={}-{} type={} shr={} radix={} when={when}",
                    base + e.offset,
                    e.length,
                    info.low,
                    info.high,
                    info.type_name.unwrap_or("-"),
                    info.shr,
                    info.radix
                ));
                table_fields(info, &name, chip, &when, out);
            }
            ElemKind::Array { elems } => {
                let name = format!("{path}{}", e.name);
                out.push(format!(
                    "{name} array @{:#x} stride={} len={} when={when}",
                    base + e.offset,
                    e.stride,
                    e.length
                ));
                table_elems(elems, &format!("{name}."), 0, chip, &when, out);
            }
            ElemKind::Stripe { elems } => {
                table_elems(elems, path, base + e.offset, chip, &when, out)
            }
        }
    }
}

/// Differences between two fact lists, as a count and examples.
fn diff(what: &str, xml: Vec<String>, ours: Vec<String>, misses: &mut Vec<String>) -> usize {
    let mut count: BTreeMap<String, i64> = BTreeMap::new();
    for f in xml {
        *count.entry(f).or_default() += 1;
    }
    for f in ours {
        *count.entry(f).or_default() -= 1;
    }
    let mut n = 0;
    for (fact, c) in count {
        if c != 0 {
            n += 1;
            if misses.len() < 30 {
                misses.push(format!(
                    "{what}: {} {fact}",
                    if c > 0 { "missing" } else { "extra" }
                ));
            }
        }
    }
    n
}

#[test]
fn generated_table_equals_freedreno_xml() {
    let Some(dir) = parsnip_reference::reference_dir("generated_table_equals_freedreno_xml") else {
        return;
    };
    let texts: Vec<String> = ["a6xx", "adreno_common", "adreno_pm4"]
        .iter()
        .map(|f| std::fs::read_to_string(dir.join(format!("registers/adreno/{f}.xml"))).unwrap())
        .collect();
    let (mut regs, mut fields, mut packets, mut mismatches) = (0, 0, 0, 0);
    let mut enums = 0;
    let mut misses = Vec::new();
    for chip in Chip::ALL {
        let x = Xml {
            docs: texts.iter().map(|t| Document::parse(t).unwrap()).collect(),
            chip,
        };
        // Register, descriptor and packet domains.
        let mut domain_names: Vec<&str> =
            vec!["A6XX", "A6XX_TEX_SAMP", "A6XX_TEX_CONST", "A6XX_UBO"];
        let pm4: Vec<String> = x.docs[2]
            .root_element()
            .children()
            .filter(|d| tag(d) == "domain")
            .map(|d| d.attribute("name").unwrap().to_string())
            .collect();
        domain_names.extend(pm4.iter().map(String::as_str));
        for name in domain_names {
            let node = x.find("domain", name).unwrap();
            let mut theirs = Vec::new();
            x.elems(node, &format!("{name}/"), 0, "", &mut theirs);
            let dom =
                table::domain(name).unwrap_or_else(|| panic!("no domain {name} in the table"));
            assert_eq!(dom.origin, Origin::Freedreno);
            let mut ours = Vec::new();
            table_elems(dom.elems, &format!("{name}/"), 0, chip, "", &mut ours);
            regs += theirs
                .iter()
                .filter(|f| !f.contains(" field ") && !f.contains(" array "))
                .count();
            fields += theirs.iter().filter(|f| f.contains(" field ")).count();
            mismatches += diff(&format!("{chip} {name}"), theirs, ours, &mut misses);
        }
        // Every enum (packet opcodes included) and its values; enums of
        // the same name are one enum.
        let mut by_name: BTreeMap<&str, Vec<String>> = BTreeMap::new();
        for e in x
            .docs
            .iter()
            .flat_map(|d| d.descendants())
            .filter(|e| tag(e) == "enum")
        {
            let name = e.attribute("name").unwrap();
            by_name.entry(name).or_default().extend(
                e.children()
                    .filter(|v| tag(v) == "value" && v.attribute("value").is_some())
                    .filter(|v| cond(&x, *v).is_some())
                    .map(|v| {
                        format!(
                            "{name} {} = {:#x}",
                            v.attribute("name").unwrap(),
                            num(v.attribute("value").unwrap())
                        )
                    }),
            );
        }
        for (name, theirs) in by_name {
            let info =
                table::enum_info(name).unwrap_or_else(|| panic!("no enum {name} in the table"));
            let ours: Vec<String> = info
                .values
                .iter()
                .filter(|v| v.cond.on(chip))
                .map(|v| format!("{name} {} = {:#x}", v.name, v.value))
                .collect();
            if name == "adreno_pm4_type3_packets" {
                packets += theirs.len();
            } else {
                enums += theirs.len();
            }
            mismatches += diff(&format!("{chip} enum"), theirs, ours, &mut misses);
        }
    }
    for m in &misses {
        eprintln!("{m}");
    }
    println!("registers: {regs} registers, {fields} bitfields, {packets} packets cross-checked, {mismatches} mismatches");
    println!("enums: {enums} values cross-checked");
    assert_eq!(mismatches, 0);
    assert!(regs >= 1000);
}
