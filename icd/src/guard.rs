//! Every entry point runs its body through one of these: a panic is caught
//! at the C boundary (unwinding into the loader is undefined behaviour) and
//! becomes an error result, after a message naming the entry point.
//!
//! On the normal path a guard costs nothing: `catch_unwind` is a call with
//! an unwind landing pad (free until a panic unwinds to it), the guards
//! inline into the entry points, and everything that reports (formatting,
//! printing) is out of line, reached only on an error or a panic.

use std::panic::{catch_unwind, AssertUnwindSafe};

use ash::vk;

#[cold]
#[inline(never)]
fn report(entry: &str, payload: Box<dyn std::any::Any + Send>) {
    let why = payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or("(no message)");
    eprintln!("parsnip: internal error: {entry} panicked: {why}");
}

#[cold]
#[inline(never)]
fn report_error(entry: &str, e: vk::Result) {
    eprintln!("parsnip: {entry}: {e:?}");
}

/// For entry points returning `VkResult`: `Ok` is `VK_SUCCESS` (or the
/// success code the body returns), a panic is `on_panic`.
#[inline(always)]
pub fn result(
    entry: &str,
    on_panic: vk::Result,
    body: impl FnOnce() -> Result<vk::Result, vk::Result>,
) -> vk::Result {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(code)) => code,
        Ok(Err(e)) => e,
        Err(payload) => {
            report(entry, payload);
            on_panic
        }
    }
}

/// `result` for bodies that only succeed with `VK_SUCCESS`.
#[inline(always)]
pub fn success(
    entry: &str,
    on_panic: vk::Result,
    body: impl FnOnce() -> Result<(), vk::Result>,
) -> vk::Result {
    result(entry, on_panic, || body().map(|()| vk::Result::SUCCESS))
}

/// For entry points returning nothing: errors and panics are reported and
/// dropped (there is no way to return them).
#[inline(always)]
pub fn void(entry: &str, body: impl FnOnce() -> Result<(), vk::Result>) {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => {}
        Ok(Err(e)) => report_error(entry, e),
        Err(payload) => report(entry, payload),
    }
}

/// For entry points returning a value: `fallback` on panic.
#[inline(always)]
pub fn value<T>(entry: &str, fallback: T, body: impl FnOnce() -> T) -> T {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(v) => v,
        Err(payload) => {
            report(entry, payload);
            fallback
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panics_become_the_given_error() {
        let r = success("vkTest", vk::Result::ERROR_DEVICE_LOST, || panic!("boom"));
        assert_eq!(r, vk::Result::ERROR_DEVICE_LOST);
        let r = result("vkTest", vk::Result::ERROR_UNKNOWN, || {
            Ok(vk::Result::INCOMPLETE)
        });
        assert_eq!(r, vk::Result::INCOMPLETE);
        assert_eq!(value("vkTest", 3, || -> i32 { panic!("x") }), 3);
        void("vkTest", || panic!("caught"));
    }
}
