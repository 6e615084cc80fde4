//! The allocator of the `eqmap` binary and of its benchmarks: mimalloc, asked for plain blocks
//! wherever their natural alignment suffices.
//!
//! Parsing and annotating make many small, short-lived allocations (tree nodes, chains,
//! bindings, records). mimalloc serves them with fewer instructions than glibc's `malloc`, and
//! its plain `mi_malloc` with fewer than `mi_malloc_aligned`, which the `mimalloc` crate calls
//! for every allocation. mimalloc aligns every block to 16 bytes, or to 8 for blocks under 16
//! bytes, so an alignment of at most 16 that does not exceed the size needs nothing more: the
//! rule by which the standard library's own `System` allocator calls `malloc`.
//!
//! A binary opts in with
//! `#[global_allocator] static ALLOCATOR: eqmap::alloc::Allocator = eqmap::alloc::Allocator;`.
//! The library itself allocates through whatever allocator its user chose.

use libmimalloc_sys::{
    mi_free, mi_malloc, mi_malloc_aligned, mi_realloc, mi_realloc_aligned, mi_zalloc, mi_zalloc_aligned,
};
use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

/// mimalloc as a global allocator (see the module documentation).
#[derive(Debug, Clone, Copy, Default)]
pub struct Allocator;

/// The alignment mimalloc gives every block of at least this size.
const NATURAL_ALIGN: usize = 16;

/// Whether a block of `size` bytes from `mi_malloc` is aligned as `align` asks.
fn naturally_aligned(align: usize, size: usize) -> bool {
    align <= NATURAL_ALIGN && align <= size
}

/// A block for `layout` from `plain` where its natural alignment suffices, else from `aligned`.
///
/// # Safety
/// `plain` and `aligned` must be mimalloc's allocation functions of those shapes.
#[inline]
unsafe fn allocate(
    layout: Layout,
    plain: unsafe extern "C" fn(usize) -> *mut c_void,
    aligned: unsafe extern "C" fn(usize, usize) -> *mut c_void,
) -> *mut u8 {
    let block = if naturally_aligned(layout.align(), layout.size()) {
        // SAFETY: any size may be asked of mimalloc; null reports failure, as Rust expects.
        unsafe { plain(layout.size()) }
    } else {
        // SAFETY: `Layout` guarantees a power-of-two alignment.
        unsafe { aligned(layout.size(), layout.align()) }
    };
    block.cast()
}

// SAFETY: every method passes its arguments to the mimalloc function that honours them: the
// plain functions only where their natural alignment satisfies the layout (see
// `naturally_aligned`), the aligned ones otherwise; blocks from either are freed by `mi_free`
// and resized by `mi_realloc`/`mi_realloc_aligned` alike (mimalloc's documented contract).
unsafe impl GlobalAlloc for Allocator {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the two functions allocate as their names say.
        unsafe { allocate(layout, mi_malloc, mi_malloc_aligned) }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the two functions allocate zeroed blocks as their names say.
        unsafe { allocate(layout, mi_zalloc, mi_zalloc_aligned) }
    }

    #[inline]
    unsafe fn dealloc(&self, block: *mut u8, _layout: Layout) {
        // SAFETY: the caller passes a block this allocator gave, which mimalloc allocated.
        unsafe { mi_free(block.cast()) }
    }

    #[inline]
    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let moved = if naturally_aligned(layout.align(), new_size) {
            // SAFETY: `block` came from mimalloc (caller's contract); the new size is non-zero.
            unsafe { mi_realloc(block.cast(), new_size) }
        } else {
            // SAFETY: as above, with the layout's power-of-two alignment.
            unsafe { mi_realloc_aligned(block.cast(), new_size, layout.align()) }
        };
        moved.cast()
    }
}

/// glibc's `mallopt` parameter for the most arenas its `malloc` may create.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const M_ARENA_MAX: std::ffi::c_int = -8;

#[cfg(all(target_os = "linux", target_env = "gnu"))]
unsafe extern "C" {
    fn mallopt(param: std::ffi::c_int, value: std::ffi::c_int) -> std::ffi::c_int;
}

/// Keeps the C library's own `malloc` to one arena: call it first in `main`, before any thread
/// starts.
///
/// Even with mimalloc as the Rust allocator, the C library allocates a little in each new
/// thread, and glibc gives every thread that does an arena of its own, reserving 64 MiB of
/// address space for it and mapping 128 MiB for a moment while it aligns it. Under a limit on
/// address space (`ulimit -v`) those reservations, not the work, decided whether batch's worker
/// threads could start, and at random: two threads aligning at once. One arena serves those
/// few allocations as well. Elsewhere than on glibc this does nothing.
pub fn limit_reservations() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only sets a tunable of glibc's allocator; called before any thread
    // starts, it races with no allocation.
    unsafe {
        mallopt(M_ARENA_MAX, 1);
    }
}

#[cfg(test)]
mod tests {
    use super::{naturally_aligned, Allocator};
    use std::alloc::{GlobalAlloc, Layout};

    #[test]
    fn blocks_of_every_small_layout_are_aligned_writable_and_resizable() {
        for align in [1usize, 2, 4, 8, 16, 32, 64, 4096] {
            for size in [1usize, 3, 8, 12, 16, 24, 100, 1000, 70_000] {
                let Ok(layout) = Layout::from_size_align(size, align) else { continue };
                // SAFETY: a non-zero size; each block is written within its size, then freed
                // once, by this allocator.
                unsafe {
                    let block = Allocator.alloc(layout);
                    assert!(!block.is_null());
                    assert_eq!(block as usize % align, 0, "size {size}, align {align}");
                    block.write_bytes(0xab, size);
                    let grown = Allocator.realloc(block, layout, size * 3);
                    assert_eq!(grown as usize % align, 0, "grown: size {size}, align {align}");
                    assert_eq!(*grown.add(size - 1), 0xab);
                    Allocator.dealloc(grown, Layout::from_size_align_unchecked(size * 3, align));
                    let zeroed = Allocator.alloc_zeroed(layout);
                    assert_eq!(zeroed as usize % align, 0);
                    assert!((0..size).all(|i| *zeroed.add(i) == 0));
                    Allocator.dealloc(zeroed, layout);
                }
            }
        }
        assert!(naturally_aligned(16, 16) && !naturally_aligned(16, 8) && !naturally_aligned(32, 64));
    }
}
