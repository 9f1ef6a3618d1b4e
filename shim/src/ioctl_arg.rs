//! Copying ioctl arguments in and out of the caller's memory, as the
//! kernel's copy_from_user/copy_to_user do: a bad pointer is `EFAULT`, not
//! a crash. Copies go through process_vm_readv/writev on our own process,
//! which report unmapped addresses instead of faulting.
//!
//! The argument struct's size comes from the request number, as DRM's
//! ioctl dispatcher takes it: a caller built against an older or newer
//! header passes fewer or more bytes; missing bytes read as zero, extra
//! ones are ignored.

use std::ffi::c_ulong;
use std::mem::{size_of, MaybeUninit};

/// An ioctl's result: Ok, or the errno the kernel would return.
pub type IoctlResult = Result<(), i32>;

const IOC_WRITE: c_ulong = 1; // userspace writes: the kernel reads
const IOC_READ: c_ulong = 2;

/// The argument size the request number encodes.
pub fn size(request: c_ulong) -> usize {
    ((request >> 16) & 0x3fff) as usize
}

/// The request's command number and type letter.
pub fn nr_and_type(request: c_ulong) -> (u8, u8) {
    ((request & 0xff) as u8, ((request >> 8) & 0xff) as u8)
}

fn dir(request: c_ulong) -> c_ulong {
    (request >> 30) & 3
}

/// Reads `len` bytes at user address `addr`.
pub fn read_bytes(addr: u64, len: usize) -> Result<Vec<u8>, i32> {
    let mut out = vec![0u8; len];
    if len == 0 {
        return Ok(out);
    }
    let local = libc::iovec {
        iov_base: out.as_mut_ptr().cast(),
        iov_len: len,
    };
    let remote = libc::iovec {
        iov_base: addr as *mut libc::c_void,
        iov_len: len,
    };
    // SAFETY: `local` is our live buffer of `len` bytes; the remote range is
    // only read by the kernel, which reports a bad address as an error.
    let n = unsafe { libc::process_vm_readv(libc::getpid(), &local, 1, &remote, 1, 0) };
    if n != len as isize {
        return Err(libc::EFAULT);
    }
    Ok(out)
}

/// Writes `bytes` at user address `addr`.
pub fn write_bytes(addr: u64, bytes: &[u8]) -> Result<(), i32> {
    if bytes.is_empty() {
        return Ok(());
    }
    let local = libc::iovec {
        iov_base: bytes.as_ptr() as *mut libc::c_void,
        iov_len: bytes.len(),
    };
    let remote = libc::iovec {
        iov_base: addr as *mut libc::c_void,
        iov_len: bytes.len(),
    };
    // SAFETY: as in `read_bytes`, with the kernel writing the remote range.
    let n = unsafe { libc::process_vm_writev(libc::getpid(), &local, 1, &remote, 1, 0) };
    if n != bytes.len() as isize {
        return Err(libc::EFAULT);
    }
    Ok(())
}

/// A plain-old-data UAPI struct: any bytes are a valid value.
///
/// # Safety
/// Implement only for `#[repr(C)]` structs of integers (and arrays of
/// them), for which every bit pattern is valid.
pub unsafe trait Pod: Copy + Default {}

macro_rules! pod {
    ($($t:ty),* $(,)?) => { $(
        // SAFETY: a #[repr(C)] struct of integers, per the UAPI.
        unsafe impl $crate::ioctl_arg::Pod for $t {}
    )* };
}
pub(crate) use pod;

pod!(u32, u64, i32);

/// The bytes of `value`.
pub fn bytes_of<T: Pod>(value: &T) -> &[u8] {
    // SAFETY: `T` is plain data; its bytes are initialised (Pod structs are
    // built from zeroed values or copied bytes, padding included).
    unsafe { std::slice::from_raw_parts((value as *const T).cast(), size_of::<T>()) }
}

/// A `T` from the first `size_of::<T>()` of `bytes`, zero-extended.
pub fn from_bytes<T: Pod>(bytes: &[u8]) -> T {
    let mut value = MaybeUninit::<T>::zeroed();
    let n = bytes.len().min(size_of::<T>());
    // SAFETY: copying at most size_of::<T>() bytes into a zeroed T, which
    // is valid for any bytes (Pod).
    unsafe {
        std::ptr::copy_nonoverlapping(bytes.as_ptr(), value.as_mut_ptr().cast::<u8>(), n);
        value.assume_init()
    }
}

/// Reads a `T` at `addr` (`len` bytes of it; zero for the rest).
pub fn read<T: Pod>(addr: u64, len: usize) -> Result<T, i32> {
    Ok(from_bytes(&read_bytes(addr, len.min(size_of::<T>()))?))
}

/// Writes `value` at `addr`, its first `len` bytes at most.
pub fn write<T: Pod>(addr: u64, value: &T, len: usize) -> Result<(), i32> {
    let b = bytes_of(value);
    write_bytes(addr, &b[..len.min(b.len())])
}

/// `count` entries of `stride` bytes each from `addr`, each read as a `T`.
pub fn read_array<T: Pod>(addr: u64, count: u32, stride: usize) -> Result<Vec<T>, i32> {
    let total = (count as usize).checked_mul(stride).ok_or(libc::ENOMEM)?;
    if total > 64 << 20 {
        return Err(libc::ENOMEM);
    }
    let bytes = read_bytes(addr, total)?;
    Ok((0..count as usize)
        .map(|i| from_bytes(&bytes[i * stride..(i + 1) * stride]))
        .collect())
}

/// Runs an ioctl handler on its argument struct: copies the argument in
/// (for requests the kernel reads), runs `handler`, copies it back (for
/// requests the kernel writes), as drm_ioctl does.
pub fn with_arg<T: Pod>(
    request: c_ulong,
    arg: u64,
    handler: impl FnOnce(&mut T) -> IoctlResult,
) -> IoctlResult {
    let len = size(request);
    let mut value: T = if dir(request) & IOC_WRITE != 0 {
        read(arg, len)?
    } else {
        T::default()
    };
    handler(&mut value)?;
    if dir(request) & IOC_READ != 0 {
        write(arg, &value, len)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_pointer_is_efault_and_short_structs_read_as_zero() {
        assert_eq!(read_bytes(8, 4), Err(libc::EFAULT));
        let data: [u32; 2] = [7, 9];
        let v: u64 = read(data.as_ptr() as u64, 4).unwrap();
        assert_eq!(v, 7, "the missing high word reads as zero");
        let mut out = [0u32; 2];
        write(out.as_mut_ptr() as u64, &0x0000_0005_0000_0006u64, 8).unwrap();
        assert_eq!(out, [6, 5]);
    }
}
