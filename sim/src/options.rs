//! How strictly and how patiently the model runs.
//!
//! Strict mode is on unless a user turns it off: a dispatch that depends on a
//! register nothing programmed is an error (see [`crate::register_file`]).
//! The hang budget bounds how long a CP wait polls memory and how many
//! instructions a dispatch may execute, so a stream that would hang the GPU
//! ends its submit with a report instead of hanging the process.
//!
//! Environment (read by [`SimOptions::from_env`], which the kernel interface's
//! simulator back end and `parsnip-replay` use):
//! - `PARSNIP_SIM_STRICT=0` turns strict mode off (`1`, the default, keeps it).
//! - `PARSNIP_SIM_STRICT_CACHES=1` turns strict caches on (see
//!   [`crate::ccu`] and [`crate::uche`]): the RB's and 2D engine's writes
//!   stay in the CCU, the other units' in UCHE, until a flush event, so a
//!   stream missing one reads stale data, which strict mode reports. Off
//!   by default (`0`).
//! - `PARSNIP_SIM_WAIT_MS=<ms>`: how long a CP wait polls (default 2000).
//! - `PARSNIP_SIM_SHADER_BUDGET=<n>`: instructions one dispatch may execute
//!   (default 2^32).
//! - `PARSNIP_SIM_SHADER_TIMEOUT_MS=<ms>`: how much CPU time one dispatch may
//!   take (default 10000). The instruction budget alone would let an endless
//!   loop run for an hour at the model's speed; like the kernel's hangcheck
//!   timer, this ends it within seconds. It counts the model thread's CPU
//!   time, so a machine loaded by other work does not make a hang of a
//!   dispatch that is merely slow to get a core.

use std::fmt;
use std::time::Duration;

/// Selects strict mode.
pub const STRICT_VAR: &str = "PARSNIP_SIM_STRICT";
/// Selects strict caches.
pub const STRICT_CACHES_VAR: &str = "PARSNIP_SIM_STRICT_CACHES";
/// Sets the CP wait budget in milliseconds.
pub const WAIT_MS_VAR: &str = "PARSNIP_SIM_WAIT_MS";
/// Sets the shader instruction budget per dispatch.
pub const SHADER_BUDGET_VAR: &str = "PARSNIP_SIM_SHADER_BUDGET";
/// Sets the CPU-time budget of one dispatch in milliseconds.
pub const SHADER_TIMEOUT_MS_VAR: &str = "PARSNIP_SIM_SHADER_TIMEOUT_MS";

/// The model's run-time settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimOptions {
    /// A dispatch reading a register nothing programmed since the context
    /// began is an error naming it.
    pub strict: bool,
    /// The CCU and UCHE hold writes to memory until events flush them
    /// ([`crate::ccu`], [`crate::uche`]).
    pub strict_caches: bool,
    /// How long a CP wait (CP_WAIT_REG_MEM, CP_WAIT_MEM_GTE) polls before the
    /// submit ends with a hang report.
    pub wait_budget: Duration,
    /// Instructions one dispatch may execute (summed over its waves) before
    /// it ends with a hang report.
    pub shader_budget: u64,
    /// How much of the model's CPU time one dispatch may take before it ends
    /// with a hang report.
    pub shader_timeout: Duration,
}

impl Default for SimOptions {
    fn default() -> Self {
        Self {
            strict: true,
            strict_caches: false,
            wait_budget: Duration::from_secs(2),
            shader_budget: 1 << 32,
            shader_timeout: Duration::from_secs(10),
        }
    }
}

/// A setting in the environment that does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionError {
    pub variable: &'static str,
    pub value: String,
    pub expected: &'static str,
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}={}: expected {}",
            self.variable, self.value, self.expected
        )
    }
}

impl std::error::Error for OptionError {}

/// An on/off setting.
fn switch(variable: &'static str, v: String) -> Result<bool, OptionError> {
    match v.trim() {
        "1" | "true" | "on" => Ok(true),
        "0" | "false" | "off" => Ok(false),
        _ => Err(OptionError {
            variable,
            value: v,
            expected: "0 or 1",
        }),
    }
}

impl SimOptions {
    /// The defaults, changed by whichever variables `env` (a lookup of
    /// environment variables) sets.
    pub fn from_lookup(env: impl Fn(&str) -> Option<String>) -> Result<Self, OptionError> {
        let mut options = Self::default();
        if let Some(v) = env(STRICT_VAR) {
            options.strict = switch(STRICT_VAR, v)?;
        }
        if let Some(v) = env(STRICT_CACHES_VAR) {
            options.strict_caches = switch(STRICT_CACHES_VAR, v)?;
        }
        if let Some(v) = env(WAIT_MS_VAR) {
            let ms: u64 = v.trim().parse().map_err(|_| OptionError {
                variable: WAIT_MS_VAR,
                value: v.clone(),
                expected: "a number of milliseconds",
            })?;
            options.wait_budget = Duration::from_millis(ms);
        }
        if let Some(v) = env(SHADER_BUDGET_VAR) {
            options.shader_budget = v.trim().parse().map_err(|_| OptionError {
                variable: SHADER_BUDGET_VAR,
                value: v.clone(),
                expected: "a number of instructions",
            })?;
        }
        if let Some(v) = env(SHADER_TIMEOUT_MS_VAR) {
            let ms: u64 = v.trim().parse().map_err(|_| OptionError {
                variable: SHADER_TIMEOUT_MS_VAR,
                value: v.clone(),
                expected: "a number of milliseconds",
            })?;
            options.shader_timeout = Duration::from_millis(ms);
        }
        Ok(options)
    }

    /// The defaults changed by the process environment.
    pub fn from_env() -> Result<Self, OptionError> {
        Self::from_lookup(|name| std::env::var(name).ok())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_is_on_unless_turned_off() {
        assert!(SimOptions::from_lookup(|_| None).unwrap().strict);
        let off = SimOptions::from_lookup(|n| (n == STRICT_VAR).then(|| "0".to_string())).unwrap();
        assert!(!off.strict);
        assert!(!SimOptions::from_lookup(|_| None).unwrap().strict_caches);
        let on =
            SimOptions::from_lookup(|n| (n == STRICT_CACHES_VAR).then(|| "1".to_string())).unwrap();
        assert!(on.strict_caches);
    }

    #[test]
    fn budgets_parse_and_bad_values_name_the_variable() {
        let o = SimOptions::from_lookup(|n| match n {
            WAIT_MS_VAR => Some("15".into()),
            SHADER_BUDGET_VAR => Some("1000".into()),
            SHADER_TIMEOUT_MS_VAR => Some("250".into()),
            _ => None,
        })
        .unwrap();
        assert_eq!(o.shader_timeout, Duration::from_millis(250));
        assert_eq!(o.wait_budget, Duration::from_millis(15));
        assert_eq!(o.shader_budget, 1000);
        let e = SimOptions::from_lookup(|n| (n == WAIT_MS_VAR).then(|| "soon".to_string()))
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "PARSNIP_SIM_WAIT_MS=soon: expected a number of milliseconds"
        );
    }
}
