//! Walks the Vulkan registry (vk.xml, from Debian's libvulkan-dev) and
//! checks the ICD's command table against it, calling the ICD's own
//! `vk_icdGetInstanceProcAddr` and `vkGetDeviceProcAddr` (the loader would
//! hide a missing instance-level command behind its trampolines):
//!
//! - every core command of the reported version and every command of every
//!   advertised extension resolves;
//! - `vkGetDeviceProcAddr` gives NULL for instance-level commands, for
//!   commands of device extensions the device did not enable, and for
//!   commands of extensions not offered (dEQP's
//!   `api.get_device_proc_addr.non_enabled`).
//!
//! One test: it sets the environment the driver reads.

mod common;

use std::collections::BTreeSet;
use std::ffi::{c_char, CString};

use ash::vk;
use common::null_facts;
use parsnip_driver::extensions::{DEVICE_EXTENSIONS, INSTANCE_EXTENSIONS};
use parsnip_driver::physical_device::API_VERSION;
use vulkan_parsnip::loader::{vkGetDeviceProcAddr, vk_icdGetInstanceProcAddr};

const VK_XML: &str = "/usr/share/vulkan/registry/vk.xml";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Level {
    Global,
    Instance,
    Device,
}

struct Registry {
    /// Every command: its name and the level its first parameter gives.
    commands: Vec<(String, Level)>,
    /// (command, what brings it, the `<require>`'s depends).
    required: Vec<(String, String, Option<String>)>,
}

fn is_vulkan(api: Option<&str>) -> bool {
    api.is_none_or(|a| a.split(',').any(|x| x == "vulkan"))
}

/// A `<require>`'s condition: `depends`, or (older registries) its
/// `feature` and `extension` attributes.
fn condition(req: roxmltree::Node) -> Option<String> {
    req.attribute("depends").map(str::to_string).or_else(|| {
        let parts: Vec<&str> = [req.attribute("feature"), req.attribute("extension")]
            .into_iter()
            .flatten()
            .collect();
        (!parts.is_empty()).then(|| parts.join("+"))
    })
}

fn registry(text: &str) -> Registry {
    let doc = roxmltree::Document::parse_with_options(
        text,
        roxmltree::ParsingOptions {
            allow_dtd: true,
            ..Default::default()
        },
    )
    .expect("vk.xml parses");
    let root = doc.root_element();
    let mut bases = std::collections::HashMap::new();
    let mut aliases = Vec::new();
    for c in root.descendants().filter(|n| n.has_tag_name("command")) {
        if c.parent().is_none_or(|p| !p.has_tag_name("commands")) || !is_vulkan(c.attribute("api"))
        {
            continue;
        }
        if let (Some(name), Some(alias)) = (c.attribute("name"), c.attribute("alias")) {
            aliases.push((name.to_string(), alias.to_string()));
            continue;
        }
        let text_of = |n: roxmltree::Node, tag: &str| {
            n.children()
                .find(|x| x.has_tag_name(tag))
                .and_then(|x| x.text())
                .unwrap_or_default()
                .to_string()
        };
        let proto = c.children().find(|x| x.has_tag_name("proto")).unwrap();
        let first = c
            .children()
            .find(|x| x.has_tag_name("param"))
            .map(|p| text_of(p, "type"))
            .unwrap_or_default();
        let level = match first.as_str() {
            "VkInstance" | "VkPhysicalDevice" => Level::Instance,
            "VkDevice" | "VkQueue" | "VkCommandBuffer" => Level::Device,
            _ => Level::Global,
        };
        bases.insert(text_of(proto, "name"), level);
    }
    let mut commands: Vec<(String, Level)> = bases.iter().map(|(n, l)| (n.clone(), *l)).collect();
    // An alias names a base command (vk.xml never chains them).
    for (name, alias) in aliases {
        commands.push((name, bases[&alias]));
    }
    let mut required = Vec::new();
    let mut collect = |node: roxmltree::Node, origin: &str| {
        for req in node.children().filter(|r| r.has_tag_name("require")) {
            if !is_vulkan(req.attribute("api")) {
                continue;
            }
            for c in req.children().filter(|c| c.has_tag_name("command")) {
                required.push((
                    c.attribute("name").unwrap().to_string(),
                    origin.to_string(),
                    condition(req),
                ));
            }
        }
    };
    for f in root.children().filter(|n| n.has_tag_name("feature")) {
        if is_vulkan(f.attribute("api")) {
            collect(f, f.attribute("name").unwrap());
        }
    }
    for e in root.descendants().filter(|n| n.has_tag_name("extension")) {
        if is_vulkan(e.attribute("supported")) {
            collect(e, e.attribute("name").unwrap());
        }
    }
    Registry { commands, required }
}

type Pfn = vk::PFN_vkVoidFunction;

fn cstring(name: &str) -> CString {
    CString::new(name).unwrap()
}

/// Resolves `name` at `level` through the ICD's own entry points.
unsafe fn resolve(instance: vk::Instance, device: vk::Device, name: &str, level: Level) -> Pfn {
    let name = cstring(name);
    let p: *const c_char = name.as_ptr();
    // SAFETY: a valid string; live handles.
    unsafe {
        match level {
            Level::Global => vk_icdGetInstanceProcAddr(vk::Instance::null(), p),
            Level::Instance => vk_icdGetInstanceProcAddr(instance, p),
            Level::Device => vkGetDeviceProcAddr(device, p),
        }
    }
}

/// Creates a device with `extensions` enabled through the ICD.
unsafe fn create_device(physical: vk::PhysicalDevice, extensions: &[*const c_char]) -> vk::Device {
    let priorities = [1.0];
    let queues = [vk::DeviceQueueCreateInfo::default().queue_priorities(&priorities)];
    let info = vk::DeviceCreateInfo::default()
        .queue_create_infos(&queues)
        .enabled_extension_names(extensions);
    let mut device = vk::Device::null();
    // SAFETY: a valid create info.
    let r = unsafe {
        vulkan_parsnip::physical_device::vkCreateDevice(
            physical,
            &info,
            std::ptr::null(),
            &mut device,
        )
    };
    assert_eq!(r, vk::Result::SUCCESS);
    device
}

#[test]
fn the_command_table_matches_the_registry() {
    let Ok(text) = std::fs::read_to_string(VK_XML) else {
        panic!("{VK_XML} is missing: install Debian's libvulkan-dev (scripts/install-deps does)");
    };
    let reg = registry(&text);
    std::env::set_var("PARSNIP_NULL", null_facts("a660"));
    std::env::remove_var("PARSNIP_SIM");

    let minor = vk::api_version_minor(API_VERSION);
    let advertised: BTreeSet<String> = INSTANCE_EXTENSIONS
        .iter()
        .chain(DEVICE_EXTENSIONS)
        .map(|e| e.name.to_str().unwrap().to_string())
        .chain((0..=minor).map(|m| format!("VK_VERSION_1_{m}")))
        .collect();
    // A `<require depends>` holds when everything it names is offered (a
    // stricter reading than the grammar's `,`, which only makes the walk
    // ask for fewer commands).
    let holds = |depends: &Option<String>| {
        depends.as_deref().is_none_or(|d| {
            d.split(['+', ',', '(', ')'])
                .filter(|n| !n.is_empty())
                .all(|n| advertised.contains(n))
        })
    };
    let level_of = |name: &str| {
        reg.commands
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, l)| *l)
            .unwrap()
    };
    let wanted: BTreeSet<&str> = reg
        .required
        .iter()
        .filter(|(_, origin, depends)| advertised.contains(origin) && holds(depends))
        .map(|(c, _, _)| c.as_str())
        .collect();
    // Commands only extensions bring that the driver does not offer.
    let offered_or_core: BTreeSet<&str> = reg
        .required
        .iter()
        .filter(|(_, origin, _)| advertised.contains(origin) || origin.starts_with("VK_VERSION"))
        .map(|(c, _, _)| c.as_str())
        .collect();
    let foreign: BTreeSet<&str> = reg
        .required
        .iter()
        .map(|(c, _, _)| c.as_str())
        .filter(|c| !offered_or_core.contains(c))
        .collect();
    assert!(wanted.len() > 150, "{} commands", wanted.len());

    // SAFETY: Vulkan calls on the ICD with valid arguments and live handles.
    unsafe {
        let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_1);
        let info = vk::InstanceCreateInfo::default().application_info(&app);
        let mut instance = vk::Instance::null();
        let r = vulkan_parsnip::instance::vkCreateInstance(&info, std::ptr::null(), &mut instance);
        assert_eq!(r, vk::Result::SUCCESS);
        let mut count = 1u32;
        let mut physical = vk::PhysicalDevice::null();
        let r = vulkan_parsnip::instance::vkEnumeratePhysicalDevices(
            instance,
            &mut count,
            &mut physical,
        );
        assert_eq!((r, count), (vk::Result::SUCCESS, 1));
        let all_extensions: Vec<*const c_char> =
            DEVICE_EXTENSIONS.iter().map(|e| e.name.as_ptr()).collect();
        let full = create_device(physical, &all_extensions);
        let bare = create_device(physical, &[]);

        let mut unresolved = Vec::new();
        for &name in &wanted {
            if resolve(instance, full, name, level_of(name)).is_none() {
                unresolved.push(name);
            }
        }
        assert_eq!(
            unresolved,
            Vec::<&str>::new(),
            "commands of Vulkan 1.{minor} or of an advertised extension without an entry point"
        );

        // Instance-level commands are NULL from vkGetDeviceProcAddr.
        for (name, level) in &reg.commands {
            if *level != Level::Device && wanted.contains(name.as_str()) {
                assert!(
                    resolve(instance, full, name, Level::Device).is_none(),
                    "vkGetDeviceProcAddr({name}) is an instance-level command"
                );
            }
        }
        // Device extension commands only on a device that enabled them.
        let core: BTreeSet<&str> = reg
            .required
            .iter()
            .filter(|(_, o, _)| advertised.contains(o) && o.starts_with("VK_VERSION"))
            .map(|(c, _, _)| c.as_str())
            .collect();
        let mut checked = 0;
        for &name in wanted.iter().filter(|n| !core.contains(*n)) {
            if level_of(name) == Level::Device {
                checked += 1;
                assert!(
                    resolve(instance, bare, name, Level::Device).is_none(),
                    "{name} resolves on a device that did not enable its extension"
                );
                assert!(
                    resolve(instance, full, name, Level::Device).is_some(),
                    "{name}"
                );
            }
        }
        assert!(checked >= 10, "{checked} extension commands checked");
        // Commands of extensions not offered resolve nowhere.
        for &name in &foreign {
            let level = level_of(name);
            assert!(
                resolve(instance, full, name, level).is_none()
                    && resolve(instance, full, name, Level::Instance).is_none(),
                "{name} belongs to no offered extension"
            );
        }

        vulkan_parsnip::device::vkDestroyDevice(full, std::ptr::null());
        vulkan_parsnip::device::vkDestroyDevice(bare, std::ptr::null());
        vulkan_parsnip::instance::vkDestroyInstance(instance, std::ptr::null());
    }
}
