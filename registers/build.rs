//! Generates the register database's Rust from `db/*.regs` (never from the
//! reference XML): the runtime table and the typed API.

#[path = "codegen/api_gen.rs"]
mod api_gen;
#[path = "codegen/source.rs"]
mod source;
#[path = "codegen/table_gen.rs"]
mod table_gen;
#[path = "codegen/types.rs"]
mod types;

use std::path::PathBuf;

/// Source files, in the order their items are merged. `parsnip.regs` holds
/// what Parsnip adds to freedreno's database.
const FILES: &[&str] = &["adreno_common", "adreno_pm4", "a6xx", "parsnip"];

fn main() {
    if let Err(e) = run() {
        eprintln!("parsnip-registers build: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    let dir =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").map_err(|e| e.to_string())?).join("db");
    println!("cargo:rerun-if-changed=codegen");
    let mut db = source::Db::default();
    let mut parsnip_domains = Vec::new();
    for name in FILES {
        let path = dir.join(format!("{name}.regs"));
        println!("cargo:rerun-if-changed={}", path.display());
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let mut part = source::Db::default();
        source::parse_into(&mut part, &format!("db/{name}.regs"), &text)
            .map_err(|e| e.to_string())?;
        if *name == "parsnip" {
            parsnip_domains.extend(part.domains.iter().map(|d| d.name.clone()));
        }
        merge(&mut db, part)?;
    }
    let out = PathBuf::from(std::env::var("OUT_DIR").map_err(|e| e.to_string())?);
    let write = |file: &str, text: String| {
        std::fs::write(out.join(file), text).map_err(|e| format!("{file}: {e}"))
    };
    write("table.rs", table_gen::generate(&db, &parsnip_domains)?)?;
    write("enums.rs", api_gen::enums(&db)?)?;
    write("regs.rs", api_gen::registers(&db)?)?;
    write("packets.rs", api_gen::packets(&db)?)?;
    write("descriptors.rs", api_gen::descriptors(&db)?)?;
    Ok(())
}

/// Enums and bitsets are global by name: a second definition adds values
/// (as rules-ng merges them); a domain may be defined once.
fn merge(db: &mut source::Db, part: source::Db) -> Result<(), String> {
    for e in part.enums {
        match db.enums.iter_mut().find(|x| x.name == e.name) {
            Some(x) => x.values.extend(e.values),
            None => db.enums.push(e),
        }
    }
    for b in part.bitsets {
        match db.bitsets.iter_mut().find(|x| x.name == b.name) {
            Some(x) => x.fields.extend(b.fields),
            None => db.bitsets.push(b),
        }
    }
    for d in part.domains {
        if db.domains.iter().any(|x| x.name == d.name) {
            return Err(format!("domain {} is defined twice", d.name));
        }
        db.domains.push(d);
    }
    Ok(())
}
