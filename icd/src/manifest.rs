//! The ICD manifest (`parsnip_icd.x86_64.json`): the loader reads it to
//! find the library. A build writes one next to the library with a relative
//! path (build.rs); an installed one names the library by absolute path
//! (icd/README.md).

include!("manifest_json.rs");

#[cfg(test)]
mod tests {
    use super::*;
    use ash::vk;

    #[test]
    fn the_manifest_names_the_library_and_the_drivers_version() {
        let text = manifest_json("./libvulkan_parsnip.so");
        assert!(
            text.contains("\"library_path\": \"./libvulkan_parsnip.so\""),
            "{text}"
        );
        let api = parsnip_driver::physical_device::API_VERSION;
        let declared = format!(
            "\"api_version\": \"{}.{}.",
            vk::api_version_major(api),
            vk::api_version_minor(api)
        );
        assert!(text.contains(&declared), "{text}");
        assert!(text.contains("\"file_format_version\": \"1.0.0\""));
        assert_eq!(
            manifest_json("/a \"b\"/lib.so")
                .lines()
                .nth(3)
                .unwrap()
                .trim(),
            "\"library_path\": \"/a \\\"b\\\"/lib.so\","
        );
    }
}
