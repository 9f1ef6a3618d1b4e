//! What the Khronos validation layer said during a case.
//!
//! Every case runs with `VK_LAYER_KHRONOS_validation` enabled and a
//! `VK_EXT_debug_utils` messenger whose callback appends each error to a
//! [`ValidationLog`]. A case passes only when the log holds no error it did not
//! announce in advance (see [`ValidationLog::expect`]): a driver bug hidden
//! behind an application error is no pass.

use ash::vk;
use std::ffi::{c_void, CStr};
use std::sync::{Arc, Mutex, MutexGuard};

/// The layer name, as `vkEnumerateInstanceLayerProperties` lists it.
pub const LAYER_NAME: &CStr = c"VK_LAYER_KHRONOS_validation";

/// One message of error severity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidationError {
    /// The message id, for the layer's own checks a VUID such as
    /// `VUID-vkAllocateMemory-pAllocateInfo-01713`.
    pub id: String,
    pub message: String,
}

#[derive(Default)]
struct Recorded {
    errors: Vec<ValidationError>,
    expected: Vec<String>,
}

/// The errors recorded so far, shared with the messenger's callback.
#[derive(Clone, Default)]
pub struct ValidationLog(Arc<Mutex<Recorded>>);

impl ValidationLog {
    fn lock(&self) -> MutexGuard<'_, Recorded> {
        // A poisoned lock only means a case panicked while holding it; the
        // messages recorded so far are still what the layer said.
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Announces that the case deliberately breaks the rule `id` names (a
    /// case checking what a driver returns for an over-sized allocation does).
    /// An error with that id is then not a failure, and its absence is one:
    /// the layer must have seen the misuse the case meant to make.
    pub fn expect(&self, id: &str) {
        self.lock().expected.push(id.to_owned());
    }

    /// The errors nobody announced, then the announced ids never reported.
    pub fn unexpected(&self) -> (Vec<ValidationError>, Vec<String>) {
        let recorded = self.lock();
        let unexpected = recorded
            .errors
            .iter()
            .filter(|e| !recorded.expected.contains(&e.id))
            .cloned()
            .collect();
        let missing = recorded
            .expected
            .iter()
            .filter(|id| !recorded.errors.iter().any(|e| &e.id == *id))
            .cloned()
            .collect();
        (unexpected, missing)
    }

    /// Every error recorded, announced or not.
    pub fn errors(&self) -> Vec<ValidationError> {
        self.lock().errors.clone()
    }

    /// The messenger description for instance creation (chained into
    /// `VkInstanceCreateInfo` so that instance creation and destruction are
    /// covered too) and for `vkCreateDebugUtilsMessengerEXT`.
    ///
    /// The callback's user data points at this log's shared state, so the
    /// log (any clone of it) must outlive the instance and the messenger.
    pub fn messenger_info(&self) -> vk::DebugUtilsMessengerCreateInfoEXT<'static> {
        vk::DebugUtilsMessengerCreateInfoEXT::default()
            .message_severity(vk::DebugUtilsMessageSeverityFlagsEXT::ERROR)
            // Validation messages only: drivers and the loader also log
            // errors through the messenger (Mesa's runtime reports the
            // VK_ERROR_FEATURE_NOT_PRESENT it returns), and those are the
            // answers cases check, not misuse.
            .message_type(vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION)
            .pfn_user_callback(Some(record_message))
            .user_data(Arc::as_ptr(&self.0) as *mut c_void)
    }
}

fn text(ptr: *const std::ffi::c_char) -> String {
    if ptr.is_null() {
        String::new()
    } else {
        // SAFETY: the layer passes NUL-terminated strings valid for the call.
        unsafe { CStr::from_ptr(ptr) }
            .to_string_lossy()
            .into_owned()
    }
}

/// The `PFN_vkDebugUtilsMessengerCallbackEXT` every case installs.
unsafe extern "system" fn record_message(
    severity: vk::DebugUtilsMessageSeverityFlagsEXT,
    types: vk::DebugUtilsMessageTypeFlagsEXT,
    data: *const vk::DebugUtilsMessengerCallbackDataEXT<'_>,
    user: *mut c_void,
) -> vk::Bool32 {
    if severity.contains(vk::DebugUtilsMessageSeverityFlagsEXT::ERROR)
        && types.contains(vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION)
        && !data.is_null()
        && !user.is_null()
    {
        // SAFETY: the layer passes valid callback data for the duration of
        // the call; `user` is the `Arc` payload set by `messenger_info`, kept
        // alive by the harness until the instance is destroyed.
        let (data, shared) = unsafe { (&*data, &*(user as *const Mutex<Recorded>)) };
        let error = ValidationError {
            id: text(data.p_message_id_name),
            message: text(data.p_message),
        };
        shared
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .errors
            .push(error);
    }
    // VK_FALSE: the call goes on to the driver, whose answer the case checks.
    vk::FALSE
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn announced_errors_are_not_failures_but_must_appear() {
        let log = ValidationLog::default();
        log.expect("VUID-a");
        log.expect("VUID-b");
        let info = log.messenger_info();
        let callback = info.pfn_user_callback.unwrap();
        for (id, message, severity) in [
            (
                c"VUID-a",
                c"over-sized",
                vk::DebugUtilsMessageSeverityFlagsEXT::ERROR,
            ),
            (
                c"VUID-c",
                c"unrelated",
                vk::DebugUtilsMessageSeverityFlagsEXT::ERROR,
            ),
            (
                c"VUID-d",
                c"a warning",
                vk::DebugUtilsMessageSeverityFlagsEXT::WARNING,
            ),
            (
                c"driver.c:1",
                c"general",
                vk::DebugUtilsMessageSeverityFlagsEXT::ERROR,
            ),
        ] {
            let types = if message == c"general" {
                vk::DebugUtilsMessageTypeFlagsEXT::GENERAL
            } else {
                vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION
            };
            let data = vk::DebugUtilsMessengerCallbackDataEXT {
                p_message_id_name: id.as_ptr(),
                p_message: message.as_ptr(),
                ..Default::default()
            };
            // SAFETY: what the layer would pass: valid data and the log's
            // user pointer, alive for the call.
            let ret = unsafe { callback(severity, types, &data, info.p_user_data) };
            assert_eq!(ret, vk::FALSE);
        }
        let (unexpected, missing) = log.unexpected();
        assert_eq!(unexpected.len(), 1);
        assert_eq!(unexpected[0].id, "VUID-c");
        assert_eq!(missing, vec!["VUID-b".to_string()]);
        assert_eq!(
            log.errors().len(),
            2,
            "warnings and general messages are not recorded"
        );
        assert_eq!(log.errors()[0].message, "over-sized");
    }
}
