//! Writes the runtime table (`OUT_DIR/table.rs`): the whole database as
//! static data of the types in `src/table.rs`.

use std::fmt::Write as _;

use crate::source::{Cond, Db, Elem, ElemKind, Field, TypeInfo, Value};
use crate::types::{self, Kind};

pub fn enum_static(name: &str) -> String {
    format!("ENUM_{}", name.to_ascii_uppercase())
}

fn cond(c: &Cond) -> String {
    let when = match &c.when {
        None => "None".to_string(),
        Some(w) => format!(
            "Some(When {{ varset: {:?}, variants: &[{}] }})",
            w.varset,
            w.variants
                .iter()
                .map(|v| format!("{v:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    format!("Cond {{ chips: ChipSet({}), when: {when} }}", c.chips.0)
}

fn values(vals: &[Value]) -> String {
    let items: Vec<String> = vals
        .iter()
        .map(|v| {
            format!(
                "EnumValue {{ value: {:#x}, name: {:?}, cond: {} }}",
                v.value,
                v.name,
                cond(&v.cond)
            )
        })
        .collect();
    format!("&[{}]", items.join(", "))
}

fn fields(db: &Db, fs: &[Field]) -> Result<String, String> {
    let mut items = Vec::new();
    for f in fs {
        let info = typeinfo(db, &f.ti).map_err(|e| format!("field {}: {e}", f.name))?;
        items.push(format!(
            "Field {{ name: {:?}, info: {info}, cond: {} }}",
            f.name,
            cond(&f.cond)
        ));
    }
    Ok(format!("&[{}]", items.join(",\n")))
}

fn typeinfo(db: &Db, ti: &TypeInfo) -> Result<String, String> {
    let kind = types::kind(db, ti)?;
    let (kind_text, fs, vals) = match &kind {
        Kind::Hex => ("Hex".into(), "&[]".into(), "&[]".into()),
        Kind::Uint => ("Uint".into(), "&[]".into(), "&[]".into()),
        Kind::Int => ("Int".into(), "&[]".into(), "&[]".into()),
        Kind::Boolean => ("Boolean".into(), "&[]".into(), "&[]".into()),
        Kind::Fixed => ("Fixed".into(), "&[]".into(), "&[]".into()),
        Kind::UFixed => ("UFixed".into(), "&[]".into(), "&[]".into()),
        Kind::Float => ("Float".into(), "&[]".into(), "&[]".into()),
        Kind::Address => ("Address".into(), "&[]".into(), "&[]".into()),
        Kind::WAddress => ("WAddress".into(), "&[]".into(), "&[]".into()),
        Kind::RegId => ("RegId".into(), "&[]".into(), "&[]".into()),
        Kind::Enum(name) => (
            format!("Enum(&{})", enum_static(name)),
            "&[]".into(),
            "&[]".into(),
        ),
        Kind::Bitset(f) => ("Bitset".into(), fields(db, f)?, "&[]".into()),
        Kind::InlineEnum => (
            "InlineEnum".into(),
            "&[]".into(),
            values(&types::inline_values(db, ti)),
        ),
    };
    Ok(format!(
        "TypeInfo {{ low: {}, high: {}, type_name: {:?}, kind: ValueKind::{kind_text}, shr: {}, radix: {}, \
         selector: {}, fields: {fs}, values: {vals} }}",
        ti.low,
        ti.high,
        ti.ty,
        ti.shr,
        ti.radix.unwrap_or(0),
        ti.addvariant
    ))
}

fn elems(db: &Db, es: &[Elem]) -> Result<String, String> {
    let mut items = Vec::new();
    for e in es {
        let kind = match &e.kind {
            ElemKind::Reg { width, ti } => {
                let info = typeinfo(db, ti).map_err(|err| format!("register {}: {err}", e.name))?;
                format!("ElemKind::Reg {{ width: {width}, info: {info} }}")
            }
            ElemKind::Array => format!("ElemKind::Array {{ elems: {} }}", elems(db, &e.children)?),
            ElemKind::Stripe => {
                format!("ElemKind::Stripe {{ elems: {} }}", elems(db, &e.children)?)
            }
        };
        items.push(format!(
            "Elem {{ name: {:?}, kind: {kind}, offset: {:#x}, length: {}, stride: {}, usage: {:?}, cond: {} }}",
            e.name,
            e.offset,
            e.length,
            e.stride,
            e.usage,
            cond(&e.cond)
        ));
    }
    Ok(format!("&[{}]", items.join(",\n")))
}

/// `parsnip_domains` are the domains `db/parsnip.regs` adds.
pub fn generate(db: &Db, parsnip_domains: &[String]) -> Result<String, String> {
    let mut out = String::new();
    for e in &db.enums {
        writeln!(
            out,
            "pub(crate) static {}: EnumInfo = EnumInfo {{ name: {:?}, values: {} }};",
            enum_static(&e.name),
            e.name,
            values(&e.values)
        )
        .unwrap();
    }
    let list: Vec<String> = db
        .enums
        .iter()
        .map(|e| format!("&{}", enum_static(&e.name)))
        .collect();
    writeln!(out, "static ENUMS: &[&EnumInfo] = &[{}];", list.join(", ")).unwrap();
    let mut doms = Vec::new();
    for d in &db.domains {
        let origin = if parsnip_domains.contains(&d.name) {
            "Parsnip"
        } else {
            "Freedreno"
        };
        doms.push(format!(
            "Domain {{ name: {:?}, width: {}, elems: {}, origin: Origin::{origin} }}",
            d.name,
            d.width,
            elems(db, &d.elems).map_err(|e| format!("domain {}: {e}", d.name))?
        ));
    }
    writeln!(out, "static DOMAINS: &[Domain] = &[{}];", doms.join(",\n")).unwrap();
    Ok(out)
}
