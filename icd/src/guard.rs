//! Every entry point runs its body through one of these: a panic is caught
//! at the C boundary (unwinding into the loader is undefined behaviour) and
//! becomes an error result, after a message naming the entry point.

use std::panic::{catch_unwind, AssertUnwindSafe};

use ash::vk;

fn report(entry: &str, payload: Box<dyn std::any::Any + Send>) {
    let why = payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or("(no message)");
    eprintln!("parsnip: internal error: {entry} panicked: {why}");
}

/// For entry points returning `VkResult`: `Ok` is `VK_SUCCESS` (or the
/// success code the body returns), a panic is `on_panic`.
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
pub fn success(
    entry: &str,
    on_panic: vk::Result,
    body: impl FnOnce() -> Result<(), vk::Result>,
) -> vk::Result {
    result(entry, on_panic, || body().map(|()| vk::Result::SUCCESS))
}

/// For entry points returning nothing: errors and panics are reported and
/// dropped (there is no way to return them).
pub fn void(entry: &str, body: impl FnOnce() -> Result<(), vk::Result>) {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => {}
        Ok(Err(e)) => eprintln!("parsnip: {entry}: {e:?}"),
        Err(payload) => report(entry, payload),
    }
}

/// For entry points returning a value: `fallback` on panic.
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
