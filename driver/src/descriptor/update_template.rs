//! `VkDescriptorUpdateTemplate`: where in the application's data each
//! descriptor of an update comes from. The ICD reads that data (raw memory
//! the application laid out: a `VkDescriptorImageInfo`,
//! `VkDescriptorBufferInfo` or `VkBufferView` per element, as the type
//! says) entry by entry and turns it into ordinary descriptor writes, so
//! a template takes every type a set does.

use std::sync::Arc;

use ash::vk;

use super::set_layout::{layout_type, DescriptorSetLayout};
use crate::error::VkResult;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TemplateEntry {
    pub binding: u32,
    pub element: u32,
    pub count: u32,
    pub ty: vk::DescriptorType,
    /// Byte offset of the first element's info in the data.
    pub offset: usize,
    /// Bytes between consecutive elements' infos.
    pub stride: usize,
}

pub struct DescriptorUpdateTemplate {
    /// The set layout the entries name bindings of (for a push descriptor
    /// template, the pipeline layout's set).
    pub layout: Arc<DescriptorSetLayout>,
    pub entries: Vec<TemplateEntry>,
    /// For a push descriptor template, the bind point it pushes for.
    pub push: Option<vk::PipelineBindPoint>,
}

impl DescriptorUpdateTemplate {
    pub fn new(
        layout: Arc<DescriptorSetLayout>,
        entries: Vec<TemplateEntry>,
        push: Option<vk::PipelineBindPoint>,
    ) -> VkResult<Arc<Self>> {
        if let Some(e) = entries.iter().find(|e| !layout_type(e.ty)) {
            eprintln!(
                "parsnip: vkCreateDescriptorUpdateTemplate: descriptor type {:?} belongs to an \
                 extension Parsnip does not offer",
                e.ty
            );
            return Err(vk::Result::ERROR_INITIALIZATION_FAILED);
        }
        if push.is_some() && entries.iter().any(|e| e.ty == super::inline_block::TYPE) {
            eprintln!(
                "parsnip: vkCreateDescriptorUpdateTemplate: inline uniform blocks are not pushed"
            );
            return Err(vk::Result::ERROR_INITIALIZATION_FAILED);
        }
        if push.is_some() != layout.push {
            eprintln!(
                "parsnip: vkCreateDescriptorUpdateTemplate: a push descriptor template needs a \
                 push descriptor set layout, and a set template another"
            );
            return Err(vk::Result::ERROR_INITIALIZATION_FAILED);
        }
        Ok(Arc::new(DescriptorUpdateTemplate {
            layout,
            entries,
            push,
        }))
    }
}
