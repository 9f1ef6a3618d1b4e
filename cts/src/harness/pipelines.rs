//! Shader modules, compute pipelines with their layouts, and descriptor sets.

use super::memory::Buffer;
use super::Harness;
use crate::bytes::to_bytes;
use crate::case::{OrStop, Stop};
use crate::shaders::Shader;
use ash::vk;

/// One binding of a descriptor set layout; bindings are numbered by their
/// position in the set, and a slot of no descriptors leaves its number out
/// of the layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    pub ty: vk::DescriptorType,
    pub count: u32,
}

impl Slot {
    pub const STORAGE: Slot = Slot::one(vk::DescriptorType::STORAGE_BUFFER);
    pub const UNIFORM: Slot = Slot::one(vk::DescriptorType::UNIFORM_BUFFER);
    pub const STORAGE_DYNAMIC: Slot = Slot::one(vk::DescriptorType::STORAGE_BUFFER_DYNAMIC);
    pub const UNIFORM_DYNAMIC: Slot = Slot::one(vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC);
    pub const STORAGE_TEXEL: Slot = Slot::one(vk::DescriptorType::STORAGE_TEXEL_BUFFER);
    pub const UNIFORM_TEXEL: Slot = Slot::one(vk::DescriptorType::UNIFORM_TEXEL_BUFFER);

    const fn one(ty: vk::DescriptorType) -> Slot {
        Slot { ty, count: 1 }
    }

    /// The same binding as an array of `count` descriptors.
    pub const fn array(self, count: u32) -> Slot {
        Slot { ty: self.ty, count }
    }

    pub const STORAGE_IMAGE: Slot = Slot::one(vk::DescriptorType::STORAGE_IMAGE);

    fn is_texel(&self) -> bool {
        matches!(
            self.ty,
            vk::DescriptorType::STORAGE_TEXEL_BUFFER | vk::DescriptorType::UNIFORM_TEXEL_BUFFER
        )
    }

    fn is_image(&self) -> bool {
        matches!(
            self.ty,
            vk::DescriptorType::SAMPLER
                | vk::DescriptorType::COMBINED_IMAGE_SAMPLER
                | vk::DescriptorType::SAMPLED_IMAGE
                | vk::DescriptorType::STORAGE_IMAGE
                | vk::DescriptorType::INPUT_ATTACHMENT
        )
    }
}

/// What a compute pipeline is made of.
#[derive(Clone, Copy)]
pub struct PipelineDesc<'a> {
    pub shader: &'a Shader,
    /// Set `i`'s bindings.
    pub sets: &'a [&'a [Slot]],
    /// The size of the single push constant range, from offset 0.
    pub push_constant_bytes: u32,
    /// `(constant_id, value)` for 32-bit specialization constants.
    pub specialization: &'a [(u32, u32)],
    pub flags: vk::PipelineCreateFlags,
    pub cache: vk::PipelineCache,
    /// Lists each layout's bindings in `pBindings` from the highest number
    /// down (the order must not matter).
    pub bindings_backwards: bool,
    /// The set whose layout is a push descriptor layout
    /// (`VK_KHR_push_descriptor`), if any.
    pub push_descriptor_set: Option<usize>,
    /// The stage's flags (ALLOW_VARYING_SUBGROUP_SIZE, REQUIRE_FULL_SUBGROUPS).
    pub stage_flags: vk::PipelineShaderStageCreateFlags,
    /// A subgroup size the stage requires (subgroupSizeControl).
    pub required_subgroup_size: Option<u32>,
    /// Set `i`'s `VkDescriptorBindingFlags`, one per slot (none when
    /// absent or empty); a set with an update-after-bind binding gets an
    /// UPDATE_AFTER_BIND_POOL layout.
    pub binding_flags: &'a [&'a [vk::DescriptorBindingFlags]],
}

impl<'a> PipelineDesc<'a> {
    pub fn new(shader: &'a Shader, sets: &'a [&'a [Slot]]) -> PipelineDesc<'a> {
        PipelineDesc {
            shader,
            sets,
            push_constant_bytes: 0,
            specialization: &[],
            flags: vk::PipelineCreateFlags::empty(),
            cache: vk::PipelineCache::null(),
            bindings_backwards: false,
            push_descriptor_set: None,
            stage_flags: vk::PipelineShaderStageCreateFlags::empty(),
            required_subgroup_size: None,
            binding_flags: &[],
        }
    }

    /// Gives each set's bindings their `VkDescriptorBindingFlags`.
    pub fn binding_flags(
        mut self,
        flags: &'a [&'a [vk::DescriptorBindingFlags]],
    ) -> PipelineDesc<'a> {
        self.binding_flags = flags;
        self
    }

    /// Makes set `set`'s layout a push descriptor layout.
    pub fn push_descriptors(mut self, set: usize) -> PipelineDesc<'a> {
        self.push_descriptor_set = Some(set);
        self
    }

    /// Lists the layouts' bindings from the highest number down.
    pub fn bindings_backwards(mut self) -> PipelineDesc<'a> {
        self.bindings_backwards = true;
        self
    }

    pub fn push_constants(mut self, bytes: u32) -> PipelineDesc<'a> {
        self.push_constant_bytes = bytes;
        self
    }

    pub fn specialize(mut self, constants: &'a [(u32, u32)]) -> PipelineDesc<'a> {
        self.specialization = constants;
        self
    }

    pub fn flags(mut self, flags: vk::PipelineCreateFlags) -> PipelineDesc<'a> {
        self.flags = flags;
        self
    }

    pub fn cache(mut self, cache: vk::PipelineCache) -> PipelineDesc<'a> {
        self.cache = cache;
        self
    }
}

/// A compute pipeline, its layout and the layouts of its sets.
#[derive(Clone, Debug)]
pub struct ComputePipeline {
    pub pipeline: vk::Pipeline,
    pub layout: vk::PipelineLayout,
    pub set_layouts: Vec<vk::DescriptorSetLayout>,
    sets: Vec<Vec<Slot>>,
}

/// One descriptor: the next element of the set's bindings, in order.
#[derive(Clone, Copy, Debug)]
pub enum Bind {
    Buffer {
        buffer: vk::Buffer,
        offset: u64,
        range: u64,
    },
    Texel(vk::BufferView),
    /// An image view, a sampler, or both, in `layout`.
    Image(vk::DescriptorImageInfo),
}

impl Bind {
    /// The whole buffer.
    pub fn whole(buffer: &Buffer) -> Bind {
        Bind::range(buffer, 0, vk::WHOLE_SIZE)
    }

    pub fn range(buffer: &Buffer, offset: u64, range: u64) -> Bind {
        Bind::Buffer {
            buffer: buffer.handle,
            offset,
            range,
        }
    }
}

impl Harness {
    pub fn shader_module(&mut self, shader: &Shader) -> Result<vk::ShaderModule, Stop> {
        let words = shader.words().map_err(Stop::Error)?;
        let info = vk::ShaderModuleCreateInfo::default().code(&words);
        // SAFETY: the device is alive; `words` is SPIR-V made by glslang.
        let module = unsafe { self.device.create_shader_module(&info, None) }
            .or_stop("vkCreateShaderModule")?;
        Ok(self.own(module))
    }

    /// A descriptor set layout with `slots` as bindings 0, 1, ... (those
    /// with descriptors), listed backwards if asked, created with `flags`,
    /// for the compute stage.
    pub fn set_layout(
        &mut self,
        slots: &[Slot],
        backwards: bool,
        flags: vk::DescriptorSetLayoutCreateFlags,
    ) -> Result<vk::DescriptorSetLayout, Stop> {
        self.set_layout_for(slots, backwards, flags, vk::ShaderStageFlags::COMPUTE)
    }

    /// [`Harness::set_layout`] for the shader stages `stages`.
    pub fn set_layout_for(
        &mut self,
        slots: &[Slot],
        backwards: bool,
        flags: vk::DescriptorSetLayoutCreateFlags,
        stages: vk::ShaderStageFlags,
    ) -> Result<vk::DescriptorSetLayout, Stop> {
        self.set_layout_with_binding_flags(slots, &[], backwards, flags, stages)
    }

    /// [`Harness::set_layout_for`] with `binding_flags[i]` for slot `i`
    /// (`VkDescriptorSetLayoutBindingFlagsCreateInfo`, chained when not
    /// empty).
    pub fn set_layout_with_binding_flags(
        &mut self,
        slots: &[Slot],
        binding_flags: &[vk::DescriptorBindingFlags],
        backwards: bool,
        flags: vk::DescriptorSetLayoutCreateFlags,
        stages: vk::ShaderStageFlags,
    ) -> Result<vk::DescriptorSetLayout, Stop> {
        let mut bindings: Vec<_> = slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.count > 0)
            .map(|(i, s)| {
                vk::DescriptorSetLayoutBinding::default()
                    .binding(i as u32)
                    .descriptor_type(s.ty)
                    .descriptor_count(s.count)
                    .stage_flags(stages)
            })
            .collect();
        let mut listed_flags: Vec<vk::DescriptorBindingFlags> = bindings
            .iter()
            .map(|b| {
                binding_flags
                    .get(b.binding as usize)
                    .copied()
                    .unwrap_or_default()
            })
            .collect();
        if backwards {
            bindings.reverse();
            listed_flags.reverse();
        }
        let mut flags_info =
            vk::DescriptorSetLayoutBindingFlagsCreateInfo::default().binding_flags(&listed_flags);
        let mut info = vk::DescriptorSetLayoutCreateInfo::default()
            .flags(flags)
            .bindings(&bindings);
        if !binding_flags.is_empty() {
            info = info.push_next(&mut flags_info);
        }
        // SAFETY: the device is alive; `bindings` outlives the call.
        let layout = unsafe { self.device.create_descriptor_set_layout(&info, None) }
            .or_stop("vkCreateDescriptorSetLayout")?;
        Ok(self.own(layout))
    }

    /// A compute pipeline as `desc` describes, entry point `main`.
    pub fn pipeline(&mut self, desc: &PipelineDesc<'_>) -> Result<ComputePipeline, Stop> {
        let module = self.shader_module(desc.shader)?;
        let mut set_layouts = Vec::new();
        for (i, slots) in desc.sets.iter().enumerate() {
            let binding_flags = desc.binding_flags.get(i).copied().unwrap_or(&[]);
            let after_bind = binding_flags
                .iter()
                .any(|f| f.contains(vk::DescriptorBindingFlags::UPDATE_AFTER_BIND));
            let flags = if desc.push_descriptor_set == Some(i) {
                vk::DescriptorSetLayoutCreateFlags::PUSH_DESCRIPTOR_KHR
            } else if after_bind {
                vk::DescriptorSetLayoutCreateFlags::UPDATE_AFTER_BIND_POOL
            } else {
                vk::DescriptorSetLayoutCreateFlags::empty()
            };
            set_layouts.push(self.set_layout_with_binding_flags(
                slots,
                binding_flags,
                desc.bindings_backwards,
                flags,
                vk::ShaderStageFlags::COMPUTE,
            )?);
        }
        let ranges = [vk::PushConstantRange::default()
            .stage_flags(vk::ShaderStageFlags::COMPUTE)
            .offset(0)
            .size(desc.push_constant_bytes)];
        let ranges: &[vk::PushConstantRange] = if desc.push_constant_bytes > 0 {
            &ranges
        } else {
            &[]
        };
        let layout_info = vk::PipelineLayoutCreateInfo::default()
            .set_layouts(&set_layouts)
            .push_constant_ranges(ranges);
        // SAFETY: the set layouts are alive; `layout_info` outlives the call.
        let layout = unsafe { self.device.create_pipeline_layout(&layout_info, None) }
            .or_stop("vkCreatePipelineLayout")?;
        let layout = self.own(layout);

        let entries: Vec<_> = desc
            .specialization
            .iter()
            .enumerate()
            .map(|(i, (id, _))| vk::SpecializationMapEntry {
                constant_id: *id,
                offset: 4 * i as u32,
                size: 4,
            })
            .collect();
        let values: Vec<u32> = desc.specialization.iter().map(|(_, v)| *v).collect();
        let data = to_bytes(&values);
        let specialization = vk::SpecializationInfo::default()
            .map_entries(&entries)
            .data(&data);
        let mut stage = vk::PipelineShaderStageCreateInfo::default()
            .flags(desc.stage_flags)
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(c"main");
        if !entries.is_empty() {
            stage = stage.specialization_info(&specialization);
        }
        let mut required_size = vk::PipelineShaderStageRequiredSubgroupSizeCreateInfo::default()
            .required_subgroup_size(desc.required_subgroup_size.unwrap_or(0));
        if desc.required_subgroup_size.is_some() {
            stage = stage.push_next(&mut required_size);
        }
        let info = vk::ComputePipelineCreateInfo::default()
            .flags(desc.flags)
            .stage(stage)
            .layout(layout);
        // SAFETY: module, layout and cache are alive; every pointer in `info`
        // refers to locals alive for the call.
        let created = unsafe {
            self.device
                .create_compute_pipelines(desc.cache, &[info], None)
        };
        let pipeline = match created {
            Ok(p) => p[0],
            Err((_, e)) => {
                return Err(Stop::Error(format!(
                    "vkCreateComputePipelines ({}) returned {e:?}",
                    desc.shader.name
                )))
            }
        };
        Ok(ComputePipeline {
            pipeline: self.own(pipeline),
            layout,
            set_layouts,
            sets: desc.sets.iter().map(|s| s.to_vec()).collect(),
        })
    }

    /// The common pipeline: `shader` with these sets, nothing else.
    pub fn compute(&mut self, shader: &Shader, sets: &[&[Slot]]) -> Result<ComputePipeline, Stop> {
        self.pipeline(&PipelineDesc::new(shader, sets))
    }

    /// A descriptor set for set `set` of `pipeline`, from a pool of its own,
    /// with `binds` written to the bindings' elements in order.
    pub fn descriptor_set(
        &mut self,
        pipeline: &ComputePipeline,
        set: usize,
        binds: &[Bind],
    ) -> Result<vk::DescriptorSet, Stop> {
        let Some(slots) = pipeline.sets.get(set) else {
            return Err(Stop::Error(format!("the pipeline has no set {set}")));
        };
        self.descriptor_set_of(pipeline.set_layouts[set], slots, binds)
    }

    /// A descriptor set of `layout`, whose bindings are `slots`, from a
    /// pool of its own, with `binds` written to the bindings' elements in
    /// order.
    pub fn descriptor_set_of(
        &mut self,
        layout: vk::DescriptorSetLayout,
        slots: &[Slot],
        binds: &[Bind],
    ) -> Result<vk::DescriptorSet, Stop> {
        let needed: u32 = slots.iter().map(|s| s.count).sum();
        if binds.len() != needed as usize {
            return Err(Stop::Error(format!(
                "the set takes {needed} descriptors, {} given",
                binds.len()
            )));
        }
        let sizes: Vec<_> = slots
            .iter()
            .filter(|s| s.count > 0)
            .map(|s| vk::DescriptorPoolSize {
                ty: s.ty,
                descriptor_count: s.count,
            })
            .collect();
        let pool_info = vk::DescriptorPoolCreateInfo::default()
            .max_sets(1)
            .pool_sizes(&sizes);
        // SAFETY: the device is alive; `sizes` outlives the call.
        let pool = unsafe { self.device.create_descriptor_pool(&pool_info, None) }
            .or_stop("vkCreateDescriptorPool")?;
        let pool = self.own(pool);
        let layouts = [layout];
        let alloc = vk::DescriptorSetAllocateInfo::default()
            .descriptor_pool(pool)
            .set_layouts(&layouts);
        // SAFETY: pool and layout are alive.
        let descriptor_set = unsafe { self.device.allocate_descriptor_sets(&alloc) }
            .or_stop("vkAllocateDescriptorSets")?[0];

        // Gather every binding's descriptors first: the writes point into them.
        let mut buffers: Vec<Vec<vk::DescriptorBufferInfo>> = Vec::new();
        let mut views: Vec<Vec<vk::BufferView>> = Vec::new();
        let mut images: Vec<Vec<vk::DescriptorImageInfo>> = Vec::new();
        let mut next = binds.iter();
        for slot in slots {
            let mut slot_buffers = Vec::new();
            let mut slot_views = Vec::new();
            let mut slot_images = Vec::new();
            for bind in next.by_ref().take(slot.count as usize) {
                match (*bind, slot.is_texel(), slot.is_image()) {
                    (
                        Bind::Buffer {
                            buffer,
                            offset,
                            range,
                        },
                        false,
                        false,
                    ) => slot_buffers.push(vk::DescriptorBufferInfo {
                        buffer,
                        offset,
                        range,
                    }),
                    (Bind::Texel(view), true, _) => slot_views.push(view),
                    (Bind::Image(info), _, true) => slot_images.push(info),
                    (bind, _, _) => {
                        return Err(Stop::Error(format!(
                            "{bind:?} given for a {:?} binding",
                            slot.ty
                        )))
                    }
                }
            }
            buffers.push(slot_buffers);
            views.push(slot_views);
            images.push(slot_images);
        }
        let writes: Vec<_> = slots
            .iter()
            .enumerate()
            .filter(|(_, slot)| slot.count > 0)
            .map(|(i, slot)| {
                let write = vk::WriteDescriptorSet::default()
                    .dst_set(descriptor_set)
                    .dst_binding(i as u32)
                    .descriptor_type(slot.ty);
                if slot.is_texel() {
                    write.texel_buffer_view(&views[i])
                } else if slot.is_image() {
                    write.image_info(&images[i])
                } else {
                    write.buffer_info(&buffers[i])
                }
            })
            .collect();
        // SAFETY: the set and every buffer and view named are alive; the
        // arrays the writes point into outlive the call.
        unsafe { self.device.update_descriptor_sets(&writes, &[]) };
        Ok(descriptor_set)
    }
}
