//! What a descriptor write stores, wherever it lands: a set's memory
//! (`vkUpdateDescriptorSets`) or a command buffer's push descriptors
//! (`vkCmdPushDescriptorSetKHR`). Both take the same writes, continue into
//! the following bindings the same way and encode the same descriptors; only
//! where the dwords go differs.

use ash::vk;
use parsnip_registers::Chip;

use super::encoding::{self, Descriptor};
use super::image_write::image_slots;
use super::set_layout::{DescriptorSetLayout, SetBinding};
use crate::buffer::{Buffer, BufferView};
use crate::error::VkResult;
use crate::image::sampler::Sampler;
use crate::image::view::ImageView;
use crate::limits::MIN_BUFFER_OFFSET_ALIGNMENT;

/// A dynamic buffer as written: the offset a bind adds goes on top.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DynamicBuffer {
    pub ty: vk::DescriptorType,
    pub iova: u64,
    pub range: u64,
}

/// What one descriptor write puts in one array element. It borrows the
/// objects: a set keeps only the descriptors, which name memory, not the
/// objects they were made from.
#[derive(Clone, Copy)]
pub enum DescriptorWrite<'a> {
    Buffer {
        buffer: &'a Buffer,
        offset: u64,
        range: u64,
    },
    TexelBuffer(&'a BufferView),
    /// A `VkDescriptorImageInfo`'s view and sampler, as the binding's type
    /// uses them (see `image_write`).
    Image {
        view: Option<&'a ImageView>,
        sampler: Option<&'a Sampler>,
    },
}

/// Where the descriptors of an update go.
pub trait DescriptorDestination {
    fn layout(&self) -> &DescriptorSetLayout;
    fn chip(&self) -> Chip;
    /// Stores `dwords` from descriptor slot `slot` on.
    fn store(&mut self, slot: u32, dwords: &[u32]) -> VkResult<()>;
    /// Remembers dynamic buffer `index` (in dynamic-offset order) as
    /// written, for binds to add their offsets to.
    fn store_dynamic(&mut self, index: u32, buffer: DynamicBuffer);
}

/// Writes `count` descriptors that `source` gives one by one (told the
/// binding each lands in) into consecutive array elements from `element`
/// of `binding`, continuing into the following bindings as the spec
/// describes ("consecutive binding updates").
#[inline]
pub fn write_each<'a>(
    dst: &mut impl DescriptorDestination,
    binding: u32,
    element: u32,
    ty: vk::DescriptorType,
    count: usize,
    mut source: impl FnMut(usize, &SetBinding) -> VkResult<DescriptorWrite<'a>>,
) -> VkResult<()> {
    let chip = dst.chip();
    let (mut binding, mut element) = (binding, element);
    for i in 0..count {
        let b = element_binding(dst.layout(), binding, element)?;
        if b.ty != ty {
            return Err(wrong_type(binding, b.ty, ty));
        }
        match source(i, b)? {
            DescriptorWrite::Image { view, sampler } => {
                for (slot, d) in image_slots(b, element, view, sampler)? {
                    dst.store(slot, &d)?;
                }
            }
            w => {
                let at = Element {
                    ty: b.ty,
                    slot: b.slot(element),
                    dynamic_index: b.first_dynamic.unwrap_or(0) + element,
                };
                store_buffer(dst, chip, at, &w)?
            }
        }
        if i + 1 == count {
            break;
        }
        match dst.layout().next_element(binding, element) {
            Some(next) => (binding, element) = next,
            None => break,
        }
    }
    Ok(())
}

/// The binding holding array element `element` of `binding`.
#[inline]
pub fn element_binding(
    layout: &DescriptorSetLayout,
    binding: u32,
    element: u32,
) -> VkResult<&SetBinding> {
    layout
        .binding(binding)
        .filter(|b| element < b.count)
        .ok_or_else(|| not_in_layout(binding, element))
}

#[cold]
fn not_in_layout(binding: u32, element: u32) -> vk::Result {
    eprintln!(
        "parsnip: descriptor update: binding {binding} element {element} is not in the layout"
    );
    vk::Result::ERROR_UNKNOWN
}

/// Where one element of a binding is written.
#[derive(Clone, Copy)]
struct Element {
    ty: vk::DescriptorType,
    slot: u32,
    /// Its index among the layout's dynamic buffers, for one.
    dynamic_index: u32,
}

/// Encodes a buffer or texel buffer write of element `at` and stores it in
/// its slot (and, for a dynamic buffer, what it was written with): inlined
/// into the write, so the descriptor goes from registers to the
/// destination once.
#[inline(always)]
fn store_buffer(
    dst: &mut impl DescriptorDestination,
    chip: Chip,
    at: Element,
    w: &DescriptorWrite<'_>,
) -> VkResult<()> {
    let slot = at.slot;
    match (at.ty, w) {
        (
            vk::DescriptorType::STORAGE_BUFFER | vk::DescriptorType::UNIFORM_BUFFER,
            DescriptorWrite::Buffer {
                buffer,
                offset,
                range,
            },
        ) => {
            let d = buffer_descriptor(
                chip,
                at.ty,
                buffer.iova(*offset),
                buffer.range(*offset, *range),
            )?;
            dst.store(slot, &d)
        }
        (
            vk::DescriptorType::STORAGE_BUFFER_DYNAMIC | vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC,
            DescriptorWrite::Buffer {
                buffer,
                offset,
                range,
            },
        ) => {
            let dynamic = DynamicBuffer {
                ty: at.ty,
                iova: buffer.iova(*offset),
                range: buffer.range(*offset, *range),
            };
            dst.store(slot, &dynamic_descriptor(chip, &dynamic, 0)?)?;
            dst.store_dynamic(at.dynamic_index, dynamic);
            Ok(())
        }
        (
            vk::DescriptorType::STORAGE_TEXEL_BUFFER | vk::DescriptorType::UNIFORM_TEXEL_BUFFER,
            DescriptorWrite::TexelBuffer(view),
        ) => dst.store(slot, &view.descriptor),
        (ty, _) => Err(does_not_fit(ty)),
    }
}

#[cold]
fn does_not_fit(ty: vk::DescriptorType) -> vk::Result {
    eprintln!("parsnip: descriptor update: the write does not fit a {ty:?} binding");
    vk::Result::ERROR_UNKNOWN
}

#[cold]
fn wrong_type(binding: u32, is: vk::DescriptorType, written: vk::DescriptorType) -> vk::Result {
    eprintln!("parsnip: descriptor update: binding {binding} is {is:?}, written as {written:?}");
    vk::Result::ERROR_UNKNOWN
}

#[inline(always)]
fn buffer_descriptor(
    chip: Chip,
    ty: vk::DescriptorType,
    iova: u64,
    range: u64,
) -> VkResult<Descriptor> {
    if !iova.is_multiple_of(MIN_BUFFER_OFFSET_ALIGNMENT) {
        return Err(misaligned(iova));
    }
    match ty {
        vk::DescriptorType::UNIFORM_BUFFER | vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC => {
            encoding::uniform_buffer(iova, range)
        }
        _ => encoding::storage_buffer(chip, iova, range),
    }
}

#[cold]
fn misaligned(iova: u64) -> vk::Result {
    eprintln!("parsnip: descriptor update: buffer address {iova:#x} is not 64-byte aligned");
    vk::Result::ERROR_UNKNOWN
}

/// The descriptor of dynamic buffer `b` moved by a bind's `offset`.
#[inline]
pub fn dynamic_descriptor(chip: Chip, b: &DynamicBuffer, offset: u64) -> VkResult<Descriptor> {
    buffer_descriptor(chip, b.ty, b.iova + offset, b.range)
}
