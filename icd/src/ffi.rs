//! Reading what the application passes and writing what it asks for: the
//! raw-pointer half of every entry point, in one place.
//!
//! Callers promise what the Vulkan spec's valid usage promises (pointers
//! valid for the counts given, chains of well-formed structures); these
//! functions only turn those promises into Rust references.

use std::ffi::{c_char, c_void, CStr};

use ash::vk;

/// `count` elements at `ptr` (an empty slice for a null pointer or zero).
///
/// # Safety
/// A non-null `ptr` points at `count` initialised `T`s that stay valid and
/// unchanged for `'a`.
pub unsafe fn slice<'a, T>(ptr: *const T, count: u32) -> &'a [T] {
    if ptr.is_null() || count == 0 {
        &[]
    } else {
        // SAFETY: the caller's promise.
        unsafe { std::slice::from_raw_parts(ptr, count as usize) }
    }
}

/// The bytes at `ptr`.
///
/// # Safety
/// As [`slice`], for `len` bytes.
pub unsafe fn bytes<'a>(ptr: *const c_void, len: usize) -> &'a [u8] {
    if ptr.is_null() || len == 0 {
        &[]
    } else {
        // SAFETY: the caller's promise.
        unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), len) }
    }
}

/// A reference to the structure at `ptr`, or `None` for null.
///
/// # Safety
/// A non-null `ptr` points at a valid `T` for `'a`.
pub unsafe fn opt_ref<'a, T>(ptr: *const T) -> Option<&'a T> {
    // SAFETY: the caller's promise.
    unsafe { ptr.as_ref() }
}

/// A required input structure; null is the application's error.
///
/// # Safety
/// As [`opt_ref`].
pub unsafe fn input<'a, T>(ptr: *const T) -> Result<&'a T, vk::Result> {
    // SAFETY: the caller's promise.
    unsafe { opt_ref(ptr) }.ok_or_else(|| {
        eprintln!(
            "parsnip: a required {} pointer is null",
            std::any::type_name::<T>()
        );
        vk::Result::ERROR_UNKNOWN
    })
}

/// A NUL-terminated string.
///
/// # Safety
/// A non-null `ptr` points at a NUL-terminated string valid for `'a`.
pub unsafe fn cstr<'a>(ptr: *const c_char) -> Option<&'a CStr> {
    if ptr.is_null() {
        None
    } else {
        // SAFETY: the caller's promise.
        Some(unsafe { CStr::from_ptr(ptr) })
    }
}

/// Strings from an array of `count` string pointers.
///
/// # Safety
/// As [`slice`] for the array and [`cstr`] for each element.
pub unsafe fn cstrs<'a>(ptr: *const *const c_char, count: u32) -> Vec<&'a CStr> {
    // SAFETY: the caller's promise.
    unsafe { slice(ptr, count) }
        .iter()
        // SAFETY: each element is a valid string, as promised.
        .filter_map(|p| unsafe { cstr(*p) })
        .collect()
}

/// Writes `value` to `ptr`.
///
/// # Safety
/// `ptr` is valid for a write of a `T`.
pub unsafe fn write<T>(ptr: *mut T, value: T) -> Result<(), vk::Result> {
    if ptr.is_null() {
        eprintln!(
            "parsnip: an output {} pointer is null",
            std::any::type_name::<T>()
        );
        return Err(vk::Result::ERROR_UNKNOWN);
    }
    // SAFETY: the caller's promise; `write` does not drop the old value,
    // which may be uninitialised.
    unsafe { ptr.write(value) };
    Ok(())
}

/// The two-call idiom (`vkEnumerate*`, `vkGet*Properties` with a count):
/// with a null `out`, the count; otherwise as many items as fit, and
/// `VK_INCOMPLETE` when not all did.
///
/// # Safety
/// `count` is valid for reads and writes; a non-null `out` is valid for
/// writes of `*count` `T`s.
pub unsafe fn fill<T: Clone>(
    count: *mut u32,
    out: *mut T,
    items: &[T],
) -> Result<vk::Result, vk::Result> {
    // SAFETY: the caller's promise.
    let Some(count) = (unsafe { count.as_mut() }) else {
        return Err(vk::Result::ERROR_UNKNOWN);
    };
    if out.is_null() {
        *count = items.len() as u32;
        return Ok(vk::Result::SUCCESS);
    }
    let n = (*count as usize).min(items.len());
    for (i, item) in items[..n].iter().enumerate() {
        // SAFETY: `out` holds `*count` elements and `i < *count`.
        unsafe { out.add(i).write(item.clone()) };
    }
    *count = n as u32;
    Ok(if n < items.len() {
        vk::Result::INCOMPLETE
    } else {
        vk::Result::SUCCESS
    })
}

/// Calls `visit` with the type and address of every structure chained
/// from `p_next`.
///
/// # Safety
/// `p_next` starts a valid chain of Vulkan structures.
pub unsafe fn walk_chain(
    p_next: *const c_void,
    mut visit: impl FnMut(vk::StructureType, *const c_void),
) {
    let mut at = p_next.cast::<vk::BaseInStructure<'_>>();
    while !at.is_null() {
        // SAFETY: each element of a valid chain starts with sType/pNext.
        let base = unsafe { &*at };
        visit(base.s_type, at.cast());
        at = base.p_next;
    }
}

/// The first structure of type `T` chained from `p_next`.
///
/// # Safety
/// As [`walk_chain`].
pub unsafe fn find_in_chain<'a, T: vk::TaggedStructure>(p_next: *const c_void) -> Option<&'a T> {
    let mut found = None;
    // SAFETY: the caller's promise.
    unsafe {
        walk_chain(p_next, |ty, ptr| {
            if ty == T::STRUCTURE_TYPE && found.is_none() {
                found = Some(ptr.cast::<T>());
            }
        });
    }
    // SAFETY: a structure whose sType says T is a T.
    found.map(|p| unsafe { &*p })
}

/// Calls `visit` with every structure of an output chain, for filling.
///
/// # Safety
/// `p_next` starts a valid chain of writable Vulkan structures.
pub unsafe fn walk_out_chain(
    p_next: *mut c_void,
    mut visit: impl FnMut(vk::StructureType, *mut c_void),
) {
    let mut at = p_next.cast::<vk::BaseOutStructure<'_>>();
    while !at.is_null() {
        // SAFETY: each element of a valid chain starts with sType/pNext.
        let (ty, next) = unsafe { ((*at).s_type, (*at).p_next) };
        visit(ty, at.cast());
        at = next;
    }
}

/// Fills the structure at `ptr` (whose sType is `T`'s) through `f`,
/// keeping its sType and pNext.
///
/// # Safety
/// `ptr` points at a writable `T`.
pub unsafe fn fill_out<T: vk::TaggedStructure>(ptr: *mut c_void, f: impl FnOnce(&mut T)) {
    // SAFETY: the caller's promise.
    let s = unsafe { &mut *ptr.cast::<T>() };
    f(s);
}

/// Copies `text` into a fixed-size C string array, truncating.
pub fn copy_str(dst: &mut [c_char], text: &str) {
    let room = dst.len().saturating_sub(1);
    let bytes = &text.as_bytes()[..text.len().min(room)];
    for (d, s) in dst.iter_mut().zip(bytes) {
        *d = *s as c_char;
    }
    dst[bytes.len()] = 0;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_two_call_idiom_counts_then_fills_and_says_incomplete() {
        let items = [1u32, 2, 3];
        let mut count = 0u32;
        // SAFETY: valid pointers to locals.
        unsafe {
            assert_eq!(
                fill(&mut count, std::ptr::null_mut(), &items),
                Ok(vk::Result::SUCCESS)
            );
            assert_eq!(count, 3);
            let mut out = [0u32; 2];
            count = 2;
            assert_eq!(
                fill(&mut count, out.as_mut_ptr(), &items),
                Ok(vk::Result::INCOMPLETE)
            );
            assert_eq!(out, [1, 2]);
        }
    }

    #[test]
    fn chains_are_walked_to_the_structure_asked_for() {
        let mut timeline = vk::SemaphoreTypeCreateInfo::default()
            .semaphore_type(vk::SemaphoreType::TIMELINE)
            .initial_value(5);
        let info = vk::SemaphoreCreateInfo::default().push_next(&mut timeline);
        // SAFETY: a chain built by ash from locals.
        let found = unsafe { find_in_chain::<vk::SemaphoreTypeCreateInfo<'_>>(info.p_next) };
        assert_eq!(found.map(|t| t.initial_value), Some(5));
        // SAFETY: as above.
        let none = unsafe { find_in_chain::<vk::ExportSemaphoreCreateInfo<'_>>(info.p_next) };
        assert!(none.is_none());
    }

    #[test]
    fn strings_are_truncated_and_terminated() {
        let mut dst = [1 as c_char; 4];
        copy_str(&mut dst, "abcdef");
        assert_eq!(dst, [b'a' as c_char, b'b' as c_char, b'c' as c_char, 0]);
    }
}
