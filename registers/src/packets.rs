//! Typed PM4 packet payloads: one struct per payload dword (or 64-bit pair)
//! of each packet, named after the packet and the dword
//! (`CpEventWriteDw0`, `CpLoadState6Dw0`, `CpLoadState6ExtSrcAddr`). A dword
//! whose layout depends on a selector field earlier in the packet has one
//! struct per selector value (`CpCondRegExecDw1RenderMode`).
//!
//! ```
//! use parsnip_registers::packets::CpBlitDw0;
//! use parsnip_registers::enums::CpBlitCmd;
//! let dw = CpBlitDw0 { op: CpBlitCmd::BLIT_OP_SCALE };
//! assert_eq!(dw.to_raw(), 3);
//! ```

include!(concat!(env!("OUT_DIR"), "/packets.rs"));
