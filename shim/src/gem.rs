//! Buffer objects: the memory behind GEM handles, kgsl ids and dma-bufs.
//!
//! All objects live in one memfd (the pool), each at its own page-aligned
//! offset, so that the process's `mmap` of a device file maps the very pages
//! the model reads and writes (the shim keeps a mapping of each object for
//! the model), and freeing an object punches its pages out of the file.
//! A dma-buf is a second, empty memfd sized like the object: `lseek(fd, 0,
//! SEEK_END)` gives the object's size, as on a real dma-buf, and its inode
//! names the object on import.

use std::collections::HashMap;
use std::ffi::c_int;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Weak};

use parking_lot::Mutex;
use parsnip_kernel_if::va_allocator::VaAllocator;

use crate::fence::Fence;
use crate::real;

/// Where objects start in the pool: DRM's mmap offsets start at 4 GiB
/// (DRM_FILE_PAGE_OFFSET_START), and the pool's offsets are the mmap
/// offsets msm's GEM_INFO(GET_OFFSET) returns.
pub const POOL_START: u64 = 1 << 32;
/// How much memory the pool can hold (sparse: only touched pages use memory).
pub const POOL_SIZE: u64 = 1 << 38;
pub const PAGE: u64 = 4096;

pub struct MemoryPool {
    memfd: c_int,
    offsets: Mutex<VaAllocator>,
}

impl MemoryPool {
    pub fn new() -> Result<Self, String> {
        // SAFETY: a NUL-terminated name; memfd_create takes no other pointer.
        let memfd = unsafe { libc::memfd_create(c"parsnip-shim-gem".as_ptr(), libc::MFD_CLOEXEC) };
        if memfd < 0 {
            return Err(format!("memfd_create: {}", std::io::Error::last_os_error()));
        }
        // SAFETY: resizing our own memfd.
        if unsafe { libc::ftruncate(memfd, (POOL_START + POOL_SIZE) as libc::off_t) } != 0 {
            return Err(format!(
                "sizing the GEM pool: {}",
                std::io::Error::last_os_error()
            ));
        }
        let offsets = VaAllocator::new(POOL_START, POOL_SIZE).map_err(|e| e.to_string())?;
        Ok(Self {
            memfd,
            offsets: Mutex::new(offsets),
        })
    }

    pub fn memfd(&self) -> c_int {
        self.memfd
    }
}

/// One buffer object.
pub struct GemObject {
    /// Unique in the process (the GPU VMs key their mappings by it).
    pub id: u64,
    pub size: u64,
    /// Its offset in the pool, which is also its mmap offset.
    pub offset: u64,
    /// Creation flags (msm MSM_BO_*, or kgsl's memflags).
    pub flags: u64,
    cpu: *mut u8,
    pool: &'static MemoryPool,
    /// Fences of submits that use it, with whether they write it.
    fences: Mutex<Vec<(Arc<Fence>, bool)>>,
    /// Its debug name (MSM_INFO_SET_NAME).
    pub name: Mutex<String>,
    /// The dma-buf memfd, once exported.
    dmabuf: Mutex<Option<c_int>>,
}

// SAFETY: `cpu` is a shared mapping of the pool that lives as long as the
// object; the GPU and the CPU access it concurrently, as on hardware, and
// the shim only ever copies bytes through it.
unsafe impl Send for GemObject {}
// SAFETY: as above.
unsafe impl Sync for GemObject {}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

impl GemObject {
    /// A zeroed object of `size` bytes (page-rounded); `ENOMEM` when the
    /// pool is full.
    pub fn new(pool: &'static MemoryPool, size: u64, flags: u64) -> Result<Arc<Self>, i32> {
        let size = size.checked_add(PAGE - 1).ok_or(libc::ENOMEM)? & !(PAGE - 1);
        if size == 0 {
            return Err(libc::EINVAL);
        }
        let offset = pool
            .offsets
            .lock()
            .alloc(size, PAGE)
            .map_err(|_| libc::ENOMEM)?;
        // SAFETY: mapping a range of our own memfd, shared, at a new address.
        let cpu = unsafe {
            real::mmap(
                std::ptr::null_mut(),
                size as usize,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                pool.memfd,
                offset as libc::off_t,
            )
        };
        if cpu == libc::MAP_FAILED {
            let _ = pool.offsets.lock().free(offset);
            return Err(libc::ENOMEM);
        }
        Ok(Arc::new(Self {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            size,
            offset,
            flags,
            cpu: cpu.cast(),
            pool,
            fences: Mutex::new(Vec::new()),
            name: Mutex::new(String::new()),
            dmabuf: Mutex::new(None),
        }))
    }

    /// The shim's own mapping of it.
    pub fn cpu_ptr(&self) -> *mut u8 {
        self.cpu
    }

    /// Records a submit's use of the object (the kernel's reservation
    /// object fences).
    pub fn add_fence(&self, fence: Arc<Fence>, write: bool) {
        let mut f = self.fences.lock();
        f.retain(|(f, _)| !f.is_signaled());
        f.push((fence, write));
    }

    /// The fences a CPU access must wait for: writers for a read, all for a
    /// write.
    pub fn busy_fences(&self, for_write: bool) -> Vec<Arc<Fence>> {
        self.fences
            .lock()
            .iter()
            .filter(|(f, write)| (for_write || *write) && !f.is_signaled())
            .map(|(f, _)| f.clone())
            .collect()
    }

    /// The dma-buf memfd for this object (made on first export).
    pub fn dmabuf_fd(self: &Arc<Self>) -> Result<c_int, i32> {
        let mut slot = self.dmabuf.lock();
        if let Some(fd) = *slot {
            return Ok(fd);
        }
        // SAFETY: a NUL-terminated name.
        let fd = unsafe { libc::memfd_create(c"parsnip-shim-dmabuf".as_ptr(), libc::MFD_CLOEXEC) };
        // SAFETY: sizing our own memfd.
        if fd < 0 || unsafe { libc::ftruncate(fd, self.size as libc::off_t) } != 0 {
            return Err(libc::ENOMEM);
        }
        let key = inode_of(fd).ok_or(libc::EBADF)?;
        dmabufs().lock().insert(key, Arc::downgrade(self));
        *slot = Some(fd);
        Ok(fd)
    }
}

impl Drop for GemObject {
    fn drop(&mut self) {
        // SAFETY: unmapping the mapping `new` made; nothing refers to it
        // once the last reference to the object is gone.
        unsafe { libc::munmap(self.cpu.cast(), self.size as usize) };
        // SAFETY: releasing the object's pages of our own memfd.
        unsafe {
            libc::fallocate(
                self.pool.memfd,
                libc::FALLOC_FL_PUNCH_HOLE | libc::FALLOC_FL_KEEP_SIZE,
                self.offset as libc::off_t,
                self.size as libc::off_t,
            )
        };
        let _ = self.pool.offsets.lock().free(self.offset);
        if let Some(fd) = self.dmabuf.get_mut().take() {
            if let Some(key) = inode_of(fd) {
                dmabufs().lock().remove(&key);
            }
            // SAFETY: closing the memfd `dmabuf_fd` opened.
            unsafe { real::close(fd) };
        }
    }
}

type InodeKey = (u64, u64);

fn dmabufs() -> &'static Mutex<HashMap<InodeKey, Weak<GemObject>>> {
    static MAP: std::sync::OnceLock<Mutex<HashMap<InodeKey, Weak<GemObject>>>> =
        std::sync::OnceLock::new();
    MAP.get_or_init(|| Mutex::new(HashMap::new()))
}

fn inode_of(fd: c_int) -> Option<InodeKey> {
    let mut st = std::mem::MaybeUninit::<libc::stat>::zeroed();
    // SAFETY: fstat writes the stat buffer it is given.
    if unsafe { real::fstat(fd, st.as_mut_ptr()) } != 0 {
        return None;
    }
    // SAFETY: fstat succeeded and filled it.
    let st = unsafe { st.assume_init() };
    Some((st.st_dev, st.st_ino))
}

/// The object a dma-buf descriptor (ours, or a duplicate) stands for:
/// `EBADF` for a closed descriptor, `EINVAL` for one that is no dma-buf of
/// ours (as dma_buf_get answers).
pub fn object_of_dmabuf(fd: c_int) -> Result<Arc<GemObject>, i32> {
    let key = inode_of(fd).ok_or(libc::EBADF)?;
    dmabufs()
        .lock()
        .get(&key)
        .and_then(Weak::upgrade)
        .ok_or(libc::EINVAL)
}

/// The model's view of an object's memory.
pub struct ModelBacking(pub Arc<GemObject>);

impl parsnip_sim::memory::Backing for ModelBacking {
    fn as_ptr(&self) -> *mut u8 {
        self.0.cpu
    }

    fn len(&self) -> usize {
        self.0.size as usize
    }
}
