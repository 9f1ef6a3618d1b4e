//! SPIR-V to ir3 shader compiler
