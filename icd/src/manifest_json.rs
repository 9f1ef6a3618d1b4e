// The ICD manifest's text. Shared by build.rs (through `include!`) and the
// crate, so the file a build writes and the one tests check are the same.

/// The manifest's file name, next to the library.
pub const MANIFEST_NAME: &str = "parsnip_icd.x86_64.json";
/// The library the manifest names.
pub const LIBRARY_NAME: &str = "libvulkan_parsnip.so";
/// The Vulkan version the manifest declares (major.minor of the driver's
/// `API_VERSION`; a test checks they agree).
pub const MANIFEST_API_VERSION: &str = "1.3.0";

/// The manifest JSON for the library at `library_path` (relative paths are
/// relative to the manifest's directory, as the loader resolves them).
pub fn manifest_json(library_path: &str) -> String {
    let escaped = library_path.replace('\\', "\\\\").replace('"', "\\\"");
    format!(
        "{{\n    \"file_format_version\": \"1.0.0\",\n    \"ICD\": {{\n        \"library_path\": \"{escaped}\",\n        \"api_version\": \"{MANIFEST_API_VERSION}\"\n    }}\n}}\n"
    )
}
