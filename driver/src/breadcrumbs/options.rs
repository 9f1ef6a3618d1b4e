//! `PARSNIP_BREADCRUMBS=host:port[,break=N:HITS]`: where the driver streams
//! breadcrumbs, and the breadcrumb the GPU stops at.

use std::fmt;

/// The environment variable.
pub const BREADCRUMBS_VAR: &str = "PARSNIP_BREADCRUMBS";

/// A stop at breadcrumb `crumb` (the `crumb`-th command of a command
/// buffer) on its `hits`-th passage, counted over every submit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BreakPoint {
    pub crumb: u32,
    pub hits: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BreadcrumbOptions {
    /// The receiver, as `host:port`.
    pub receiver: String,
    pub break_point: Option<BreakPoint>,
}

/// Why a `PARSNIP_BREADCRUMBS` value is not understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadOptions(pub String);

impl fmt::Display for BadOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{BREADCRUMBS_VAR}: {} (expected host:port[,break=N:HITS] with N and HITS from 1)",
            self.0
        )
    }
}

impl BreadcrumbOptions {
    pub fn parse(text: &str) -> Result<BreadcrumbOptions, BadOptions> {
        let mut parts = text.split(',').map(str::trim);
        let receiver = parts.next().unwrap_or_default();
        if receiver
            .rsplit_once(':')
            .is_none_or(|(host, port)| host.is_empty() || port.parse::<u16>().is_err())
        {
            return Err(BadOptions(format!("`{receiver}` is not host:port")));
        }
        let mut break_point = None;
        for part in parts {
            let Some(spec) = part.strip_prefix("break=") else {
                return Err(BadOptions(format!("unknown option `{part}`")));
            };
            let numbers = spec
                .split_once(':')
                .and_then(|(n, h)| Some((n.parse::<u32>().ok()?, h.parse::<u32>().ok()?)));
            match numbers {
                Some((crumb, hits)) if crumb > 0 && hits > 0 => {
                    break_point = Some(BreakPoint { crumb, hits })
                }
                _ => return Err(BadOptions(format!("`{part}` is not break=N:HITS"))),
            }
        }
        Ok(BreadcrumbOptions {
            receiver: receiver.to_string(),
            break_point,
        })
    }

    /// The options of this process's environment: `None` when unset, and,
    /// with a warning on stderr, when not understood.
    pub fn from_env() -> Option<BreadcrumbOptions> {
        let text = std::env::var(BREADCRUMBS_VAR).ok()?;
        match BreadcrumbOptions::parse(&text) {
            Ok(o) => Some(o),
            Err(e) => {
                eprintln!("parsnip: {e}; breadcrumbs stay off");
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_receiver_alone_and_with_a_break_point() {
        assert_eq!(
            BreadcrumbOptions::parse("127.0.0.1:7000"),
            Ok(BreadcrumbOptions {
                receiver: "127.0.0.1:7000".into(),
                break_point: None
            })
        );
        assert_eq!(
            BreadcrumbOptions::parse("localhost:9,break=3:2")
                .unwrap()
                .break_point,
            Some(BreakPoint { crumb: 3, hits: 2 })
        );
    }

    #[test]
    fn malformed_values_are_refused() {
        for bad in [
            "",
            "7000",
            ":7000",
            "host:port",
            "h:1,break=3",
            "h:1,break=0:1",
            "h:1,break=1:0",
            "h:1,stop=1:1",
        ] {
            assert!(BreadcrumbOptions::parse(bad).is_err(), "{bad}");
        }
    }
}
