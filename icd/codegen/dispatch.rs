//! Generates the ICD's command table from the Vulkan registry (vk.xml): one
//! entry per command name that a Vulkan version or an extension brings and
//! that an entry point of the ICD implements, tagged with what brings it
//! and the object it dispatches on.
//!
//! The entry point implementing a command is the `pub unsafe extern
//! "system" fn` of `src/` named as the command, or, for an alias (a
//! promoted extension command such as `vkGetPhysicalDeviceProperties2KHR`),
//! as the command it aliases. Whether a command is offered is decided at
//! run time from what the driver reports (its API version and extension
//! lists), so that list has one source.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;

/// A command as the registry declares it.
struct Command {
    /// The type of its first parameter, which decides its dispatch level.
    first_param: String,
    /// For an alias: the command it aliases.
    alias: Option<String>,
}

/// What brings a command.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Origin {
    /// A core version, by minor number (Vulkan 1.x).
    Version(u32),
    /// An extension, and the `depends` expression of the `<require>` block
    /// naming the command, if any.
    Extension {
        name: String,
        kind: String,
        depends: Option<String>,
    },
}

fn is_vulkan(api: Option<&str>) -> bool {
    api.is_none_or(|list| list.split(',').any(|a| a == "vulkan"))
}

fn child<'a>(node: roxmltree::Node<'a, 'a>, tag: &str) -> Option<roxmltree::Node<'a, 'a>> {
    node.children().find(|c| c.has_tag_name(tag))
}

fn text_of(node: roxmltree::Node<'_, '_>, tag: &str) -> Option<String> {
    child(node, tag).and_then(|n| n.text()).map(str::to_string)
}

/// Every command of the registry, by name.
fn commands(root: roxmltree::Node<'_, '_>) -> BTreeMap<String, Command> {
    let mut out = BTreeMap::new();
    for group in root.children().filter(|c| c.has_tag_name("commands")) {
        for c in group.children().filter(|c| c.has_tag_name("command")) {
            if !is_vulkan(c.attribute("api")) {
                continue;
            }
            if let (Some(name), Some(alias)) = (c.attribute("name"), c.attribute("alias")) {
                out.insert(
                    name.to_string(),
                    Command {
                        first_param: String::new(),
                        alias: Some(alias.to_string()),
                    },
                );
                continue;
            }
            let Some(name) = child(c, "proto").and_then(|p| text_of(p, "name")) else {
                continue;
            };
            let first_param = c
                .children()
                .find(|p| p.has_tag_name("param") && is_vulkan(p.attribute("api")))
                .and_then(|p| text_of(p, "type"))
                .unwrap_or_default();
            out.insert(
                name,
                Command {
                    first_param,
                    alias: None,
                },
            );
        }
    }
    out
}

/// What a `<require>` block needs besides its extension, as a `depends`
/// expression: its `depends`, or in older registries its `feature` and
/// `extension` attributes, both needed.
fn condition(req: roxmltree::Node<'_, '_>) -> Option<String> {
    if let Some(d) = req.attribute("depends") {
        return Some(d.to_string());
    }
    let parts: Vec<&str> = [req.attribute("feature"), req.attribute("extension")]
        .into_iter()
        .flatten()
        .collect();
    (!parts.is_empty()).then(|| parts.join("+"))
}

/// The commands each `<require>` of `node` names, with its condition.
fn required(node: roxmltree::Node<'_, '_>) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    for req in node.children().filter(|c| c.has_tag_name("require")) {
        if !is_vulkan(req.attribute("api")) {
            continue;
        }
        let depends = condition(req);
        for c in req.children().filter(|c| c.has_tag_name("command")) {
            if let Some(name) = c.attribute("name") {
                out.push((name.to_string(), depends.clone()));
            }
        }
    }
    out
}

/// Every (command, origin) pair of the registry.
fn origins(root: roxmltree::Node<'_, '_>) -> BTreeSet<(String, Origin)> {
    let mut out = BTreeSet::new();
    for f in root.children().filter(|c| c.has_tag_name("feature")) {
        if !is_vulkan(f.attribute("api")) {
            continue;
        }
        let Some(minor) = f
            .attribute("number")
            .and_then(|n| n.strip_prefix("1."))
            .and_then(|m| m.parse().ok())
        else {
            continue;
        };
        for (name, _) in required(f) {
            out.insert((name, Origin::Version(minor)));
        }
    }
    let extensions: Vec<roxmltree::Node<'_, '_>> = root
        .children()
        .filter(|c| c.has_tag_name("extensions"))
        .flat_map(|group| group.children().filter(|c| c.has_tag_name("extension")))
        .filter(|e| {
            let supported = e.attribute("supported");
            supported != Some("disabled") && is_vulkan(supported)
        })
        .collect();
    let kind_of = |wanted: &str| {
        extensions
            .iter()
            .find(|e| e.attribute("name") == Some(wanted))
            .and_then(|e| e.attribute("type"))
    };
    for e in &extensions {
        let (Some(name), Some(kind)) = (e.attribute("name"), e.attribute("type")) else {
            continue;
        };
        let promoted_to = e
            .attribute("promotedto")
            .filter(|p| p.starts_with("VK_VERSION_"));
        for (command, depends) in required(*e) {
            // A command an extension brings only alongside another one
            // (vkCmdWriteBufferMarker2AMD: synchronization2 with
            // VK_AMD_buffer_marker) also comes with that other extension
            // on a version the first was promoted to, where the first is
            // not enabled since it is core. Newer registries say so
            // themselves (VK_AMD_buffer_marker depending on
            // VK_VERSION_1_3 or VK_KHR_synchronization2).
            let alongside = depends
                .as_deref()
                .filter(|d| !d.contains(['+', ',', '(', ')']))
                .and_then(|d| Some((d, kind_of(d)?)))
                // Only between extensions of one kind: a device command
                // brought with an instance extension (device groups'
                // presentation with VK_KHR_surface) still needs a device
                // extension enabled.
                .filter(|(_, other_kind)| *other_kind == kind);
            if let (Some(version), Some((other, other_kind))) = (promoted_to, alongside) {
                out.insert((
                    command.clone(),
                    Origin::Extension {
                        name: other.to_string(),
                        kind: other_kind.to_string(),
                        depends: Some(version.to_string()),
                    },
                ));
            }
            out.insert((
                command,
                Origin::Extension {
                    name: name.to_string(),
                    kind: kind.to_string(),
                    depends,
                },
            ));
        }
    }
    out
}

/// The ICD's entry points: function name to the module of lib.rs defining
/// it.
fn entry_points(src: &Path) -> Result<BTreeMap<String, String>, String> {
    let mut out = BTreeMap::new();
    // The modules lib.rs declares (`pub mod name;`), each a file of src/.
    let lib = src.join("lib.rs");
    let lib_text = std::fs::read_to_string(&lib).map_err(|e| format!("{}: {e}", lib.display()))?;
    let modules = lib_text
        .lines()
        .filter_map(|l| l.strip_prefix("pub mod ")?.strip_suffix(';'))
        .map(str::to_string);
    for module in modules {
        let path = src.join(format!("{module}.rs"));
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        for line in text.lines() {
            let Some(rest) = line.strip_prefix("pub unsafe extern \"system\" fn vk") else {
                continue;
            };
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            if rest[name.len()..].starts_with('(') {
                if let Some(other) = out.insert(format!("vk{name}"), module.clone()) {
                    return Err(format!(
                        "vk{name} is defined in both {other}.rs and {module}.rs"
                    ));
                }
            }
        }
    }
    Ok(out)
}

/// The dispatch level of a command whose first parameter is `ty`.
fn scope(ty: &str) -> &'static str {
    match ty {
        "VkInstance" => "Scope::Instance",
        "VkPhysicalDevice" => "Scope::PhysicalDevice",
        "VkDevice" | "VkQueue" | "VkCommandBuffer" => "Scope::Device",
        _ => "Scope::Global",
    }
}

/// The Rust source of the table: `generated_entries()`, every (name,
/// origin) whose command the ICD implements.
pub fn generate(vk_xml: &Path, src: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(vk_xml).map_err(|e| format!("{}: {e}", vk_xml.display()))?;
    let doc = roxmltree::Document::parse_with_options(
        &text,
        roxmltree::ParsingOptions {
            allow_dtd: true,
            ..Default::default()
        },
    )
    .map_err(|e| format!("{}: {e}", vk_xml.display()))?;
    let root = doc.root_element();
    let commands = commands(root);
    let implemented = entry_points(src)?;
    let mut out = String::new();
    writeln!(
        out,
        "// Generated by build.rs from {} and the entry points of src/.\n\
         fn generated_entries() -> Vec<Entry> {{\n\
         // SAFETY: every pointer is a `pub unsafe extern \"system\" fn` of\n\
         // the ICD, the entry point of the command it is listed for.\n\
         unsafe {{ vec![",
        vk_xml.display()
    )
    .unwrap();
    for (name, origin) in origins(root) {
        // The implementation: the command's own name, else what it aliases.
        let mut base = name.clone();
        let mut function = implemented.get(&base).map(|m| (m, base.clone()));
        while let Some(alias) = commands.get(&base).and_then(|c| c.alias.clone()) {
            base = alias;
            if function.is_none() {
                function = implemented.get(&base).map(|m| (m, base.clone()));
            }
        }
        let (Some((module, function)), Some(command)) = (function, commands.get(&base)) else {
            continue;
        };
        let origin = match origin {
            Origin::Version(minor) => format!("Origin::Version({minor})"),
            Origin::Extension {
                name,
                kind,
                depends,
            } => format!(
                "Origin::Extension {{ name: c\"{name}\", device: {}, depends: {depends:?} }}",
                kind == "device"
            ),
        };
        writeln!(
            out,
            "    Entry::new(c\"{name}\", {}, {origin}, crate::{module}::{function} as *const ()),",
            scope(&command.first_param),
        )
        .unwrap();
    }
    out.push_str("] }\n}\n");
    Ok(out)
}
