//! The cases, one module per area. Each module lists its cases in `CASES`.

use crate::case::Case;

pub mod arithmetic;
pub mod atomics;
pub mod barriers;
pub mod buffer_layouts;
pub mod buffer_markers;
pub mod control_flow;
pub mod copies_and_fills;
pub mod descriptor_indexing;
pub mod device_addresses;
pub mod dispatch;
pub mod draw_sizes;
pub mod draws;
pub mod draws_in_secondaries;
pub mod dynamic_state;
pub mod format_features2;
pub mod graphics_descriptors;
pub mod image_robustness;
pub mod image_shaders;
pub mod images;
pub mod indirect_dispatch;
pub mod inline_uniform_block;
pub mod integer_dot;
mod integer_dot_expectation;
pub mod maintenance4;
pub mod memory;
pub mod memory_model;
pub mod multisample;
pub mod non_semantic;
pub mod occlusion_queries;
mod one_dispatch;
pub mod pipeline_cache;
pub mod pipeline_cache_control;
pub mod pipelines;
pub mod presentation;
pub mod private_data;
mod pseudo_random;
pub mod push_constants;
pub mod push_descriptors;
pub mod queries;
pub mod rejections;
pub mod render_passes;
pub mod robustness;
pub mod scalar_layout;
pub mod shared_memory;
pub mod sixteen_bit;
pub mod spirv_1_4;
pub mod stencil;
mod step;
mod subgroup_shuffle_expectation;
pub mod subgroup_size_control;
mod subgroup_size_expectation;
pub mod subgroups;
pub mod synchronization;
pub mod texel_buffer_alignment;
pub mod timeline_semaphores;
pub mod tooling_info;
pub mod vulkan12;
pub mod vulkan13;

/// Every case, in a stable order.
pub fn all() -> Vec<Case> {
    [
        arithmetic::CASES,
        control_flow::CASES,
        dispatch::CASES,
        shared_memory::CASES,
        atomics::CASES,
        barriers::CASES,
        push_constants::CASES,
        buffer_layouts::CASES,
        indirect_dispatch::CASES,
        copies_and_fills::CASES,
        images::CASES,
        render_passes::CASES,
        draws::CASES,
        multisample::CASES,
        graphics_descriptors::CASES,
        stencil::CASES,
        dynamic_state::CASES,
        draws_in_secondaries::CASES,
        occlusion_queries::CASES,
        draw_sizes::CASES,
        draws::indirect_count::CASES,
        draws::terminate_and_demote::CASES,
        draws::imageless_framebuffer::CASES,
        draws::dynamic_rendering::CASES,
        draws::multiview::CASES,
        draws::separate_depth_stencil_layouts::CASES,
        image_shaders::CASES,
        memory::CASES,
        memory_model::CASES,
        integer_dot::CASES,
        timeline_semaphores::CASES,
        synchronization::CASES,
        queries::CASES,
        buffer_markers::CASES,
        push_descriptors::CASES,
        pipelines::CASES,
        pipeline_cache::CASES,
        rejections::CASES,
        robustness::CASES,
        presentation::CASES,
        subgroups::CASES,
        subgroup_size_control::CASES,
        sixteen_bit::CASES,
        scalar_layout::CASES,
        spirv_1_4::CASES,
        device_addresses::CASES,
        non_semantic::CASES,
        vulkan12::CASES,
        tooling_info::CASES,
        maintenance4::CASES,
        private_data::CASES,
        vulkan13::CASES,
        pipeline_cache_control::CASES,
        format_features2::CASES,
        texel_buffer_alignment::CASES,
        inline_uniform_block::CASES,
        image_robustness::CASES,
        descriptor_indexing::CASES,
    ]
    .concat()
}

/// Whether `name` matches `pattern`: with `*` a glob over the whole name,
/// without one a substring.
pub fn matches(pattern: &str, name: &str) -> bool {
    if !pattern.contains('*') {
        return name.contains(pattern);
    }
    let parts: Vec<&str> = pattern.split('*').collect();
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !name.starts_with(first) || name.len() < first.len() + last.len() || !name.ends_with(last) {
        return false;
    }
    let mut rest = &name[first.len()..name.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

/// The cases of `all` that match any of `patterns`, or all with none.
pub fn select(all: &[Case], patterns: &[String]) -> Vec<Case> {
    all.iter()
        .filter(|c| patterns.is_empty() || patterns.iter().any(|p| matches(p, c.name)))
        .copied()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_are_globs_or_substrings() {
        assert!(matches("atomics", "atomics.counter_add"));
        assert!(matches("atomics.*", "atomics.counter_add"));
        assert!(matches("*.counter_*", "atomics.counter_add"));
        assert!(matches("a*c*d", "abcd"));
        assert!(!matches("a*c*d", "abdc"));
        assert!(!matches("ab*ba", "aba"));
        assert!(!matches("atomics.*", "x.atomics.y"));
    }

    #[test]
    fn names_are_unique_and_well_formed() {
        let cases = all();
        assert!(cases.len() >= 40, "{} cases", cases.len());
        let mut names: Vec<&str> = cases.iter().map(|c| c.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), cases.len(), "duplicate case names");
        for name in names {
            let (area, what) = name.split_once('.').expect("area.what");
            let ok = |s: &str| {
                !s.is_empty()
                    && s.bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
            };
            assert!(ok(area) && ok(what), "{name}");
        }
    }
}
