//! Finding Adreno GPUs: the DRM render nodes whose kernel driver is `msm`.
//!
//! Render nodes (`renderD128` and up) are the unprivileged GPU interface;
//! the driver name comes from DRM_IOCTL_VERSION, the same answer `drmGetVersion`
//! gives. Nodes that cannot be opened or are not DRM devices are noted, not
//! fatal: the error for "no Adreno" lists what was seen, which is what a user
//! with the wrong permissions needs to read.

use std::path::{Path, PathBuf};

use drm::Device as _;

use super::drm_file::DrmFile;

/// Where Linux puts DRM device nodes.
pub const DRI_DIR: &str = "/dev/dri";

/// What a scan of the render nodes found.
#[derive(Debug, Default)]
pub struct Discovery {
    /// Render nodes driven by msm, in node order.
    pub msm: Vec<PathBuf>,
    /// Every other render node and why it was passed over
    /// ("renderD128: driver i915", "renderD129: Permission denied").
    pub skipped: Vec<String>,
    /// Set when the directory itself could not be read.
    pub unreadable: Option<String>,
}

impl Discovery {
    /// One line for an error message: what was looked at and found.
    pub fn summary(&self, dir: &Path) -> String {
        if let Some(why) = &self.unreadable {
            return format!("{} could not be read: {why}", dir.display());
        }
        if self.skipped.is_empty() {
            return format!("{} has no render node", dir.display());
        }
        format!(
            "render nodes in {}: {}",
            dir.display(),
            self.skipped.join("; ")
        )
    }
}

/// Scans the render nodes in `dir` (normally [`DRI_DIR`]).
pub fn discover_in(dir: &Path) -> Discovery {
    let mut found = Discovery::default();
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => {
            found.unreadable = Some(e.to_string());
            return found;
        }
    };
    let mut nodes: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("renderD"))
        })
        .collect();
    nodes.sort();
    for node in nodes {
        let name = node
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        match driver_name(&node) {
            Ok(driver) if driver == "msm" => found.msm.push(node),
            Ok(driver) => found.skipped.push(format!("{name}: driver {driver}")),
            Err(why) => found.skipped.push(format!("{name}: {why}")),
        }
    }
    found
}

/// Scans [`DRI_DIR`].
pub fn discover() -> Discovery {
    discover_in(Path::new(DRI_DIR))
}

fn driver_name(node: &Path) -> Result<String, String> {
    let file = DrmFile::open(node).map_err(|e| match e {
        crate::Error::Io { source, .. } => source.to_string(),
        other => other.to_string(),
    })?;
    let driver = file
        .get_driver()
        .map_err(|e| format!("not a DRM device ({e})"))?;
    Ok(driver.name().to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_that_are_not_drm_devices_are_listed_not_fatal() {
        let dir = std::env::temp_dir().join(format!("parsnip-discovery-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("renderD128"), b"not a device").unwrap();
        std::fs::write(dir.join("card0"), b"not a render node").unwrap();
        let found = discover_in(&dir);
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(found.msm.is_empty());
        assert_eq!(found.skipped.len(), 1, "{:?}", found.skipped);
        assert!(
            found.skipped[0].starts_with("renderD128: not a DRM device"),
            "{:?}",
            found.skipped
        );
    }

    #[test]
    fn a_missing_directory_is_reported() {
        let dir = Path::new("/nonexistent/parsnip/dri");
        let found = discover_in(dir);
        assert!(found.msm.is_empty());
        assert!(
            found.summary(dir).contains("could not be read"),
            "{}",
            found.summary(dir)
        );
    }
}
