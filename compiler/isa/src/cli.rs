//! The `parsnip-ir3` command.
