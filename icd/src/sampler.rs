//! `vkCreateSampler` and `vkDestroySampler`, and the immutable samplers
//! of a descriptor set layout.

use ash::vk;
use parsnip_driver::descriptor::encoding::SamplerArgs;
use parsnip_driver::descriptor::set_layout::ImmutableSamplers;
use parsnip_driver::image::sampler::Sampler;

use crate::ffi;
use crate::guard;
use crate::handles;

pub unsafe extern "system" fn vkCreateSampler(
    _device: vk::Device,
    p_info: *const vk::SamplerCreateInfo<'_>,
    _p_allocator: *const vk::AllocationCallbacks<'_>,
    p_sampler: *mut vk::Sampler,
) -> vk::Result {
    guard::success(
        "vkCreateSampler",
        vk::Result::ERROR_OUT_OF_HOST_MEMORY,
        || {
            // SAFETY: the application's structure.
            let info = unsafe { ffi::input(p_info) }?;
            // SAFETY: as above; its chain is valid.
            let reduction = unsafe {
                ffi::find_in_chain::<vk::SamplerReductionModeCreateInfo<'_>>(info.p_next)
            }
            .map_or(vk::SamplerReductionMode::WEIGHTED_AVERAGE, |r| {
                r.reduction_mode
            });
            let args = SamplerArgs {
                mag: info.mag_filter,
                min: info.min_filter,
                mipmap: info.mipmap_mode,
                address: [
                    info.address_mode_u,
                    info.address_mode_v,
                    info.address_mode_w,
                ],
                lod_bias: info.mip_lod_bias,
                anisotropy: (info.anisotropy_enable == vk::TRUE).then_some(info.max_anisotropy),
                compare: (info.compare_enable == vk::TRUE).then_some(info.compare_op),
                min_lod: info.min_lod,
                max_lod: info.max_lod,
                border_color: info.border_color.as_raw() as u32,
                unnormalized: info.unnormalized_coordinates == vk::TRUE,
                reduction,
                seamless_cube: true,
            };
            let sampler = Sampler::new(args)?;
            // SAFETY: pSampler is valid for a write.
            unsafe { ffi::write(p_sampler, handles::new_sampler(sampler)) }
        },
    )
}

pub unsafe extern "system" fn vkDestroySampler(
    _device: vk::Device,
    sampler: vk::Sampler,
    _p: *const vk::AllocationCallbacks<'_>,
) {
    guard::void("vkDestroySampler", || {
        // SAFETY: the application destroys the handle, which valid usage makes its last use.
        unsafe { handles::drop_sampler(sampler) };
        Ok(())
    })
}

/// The immutable samplers of a layout's bindings, as their descriptors: the
/// `pImmutableSamplers` of its sampler and combined image sampler bindings
/// (other types ignore the member, which may then be anything).
///
/// # Safety
/// Each binding's `pImmutableSamplers` is null or holds `descriptorCount`
/// handles.
pub(crate) unsafe fn immutable_samplers(
    bindings: &[vk::DescriptorSetLayoutBinding<'_>],
) -> Result<Vec<ImmutableSamplers>, vk::Result> {
    let mut out = Vec::new();
    for b in bindings {
        let takes_samplers = matches!(
            b.descriptor_type,
            vk::DescriptorType::SAMPLER | vk::DescriptorType::COMBINED_IMAGE_SAMPLER
        );
        if !takes_samplers || b.p_immutable_samplers.is_null() {
            continue;
        }
        // SAFETY: the caller's promise.
        let handles = unsafe { ffi::slice(b.p_immutable_samplers, b.descriptor_count) };
        let descriptors = handles
            .iter()
            // SAFETY: handles the application passed; valid usage keeps them live for the call.
            .map(|h| unsafe { handles::sampler(*h) }.map(|s| s.descriptor))
            .collect::<Result<_, _>>()?;
        out.push(ImmutableSamplers {
            binding: b.binding,
            descriptors,
        });
    }
    Ok(out)
}
