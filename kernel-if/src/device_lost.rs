//! The device-lost state software back ends share between their submit
//! workers and the driver-facing calls.
//!
//! The first report wins: after a hang, later submits only run into the
//! consequences of the first, and the first is what explains the loss.

use parking_lot::Mutex;

use crate::error::{Error, Result};

#[derive(Default)]
pub struct LostState {
    report: Mutex<Option<String>>,
}

impl LostState {
    pub fn new() -> Self {
        Self::default()
    }

    /// Marks the device lost, unless it already is.
    pub fn set(&self, report: String) {
        self.report.lock().get_or_insert(report);
    }

    pub fn is_lost(&self) -> bool {
        self.report.lock().is_some()
    }

    /// Ok, or [`Error::DeviceLost`] with the first report.
    pub fn check(&self) -> Result<()> {
        match &*self.report.lock() {
            None => Ok(()),
            Some(report) => Err(Error::DeviceLost {
                report: report.clone(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_report_is_kept() {
        let lost = LostState::new();
        lost.check().unwrap();
        lost.set("hang in IB1 at dword 12".into());
        lost.set("a later fault".into());
        let err = lost.check().unwrap_err();
        assert_eq!(err.to_string(), "device lost: hang in IB1 at dword 12");
    }
}
