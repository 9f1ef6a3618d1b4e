//! The compute state of a dispatch, programmed by register name as Turnip's
//! compute stream programs it.

use parsnip_registers::enums::{A6xxBindlessDescriptorSize, A6xxThreadsize};
use parsnip_registers::regs::{self, a6xx, a7xx};
use parsnip_registers::Chip;

use super::{Stream, DATA};

/// Where the tests put the program and the bindless descriptors.
pub const PROGRAM: u64 = DATA + 0x1000;
pub const BINDLESS: u64 = DATA + 0x2000;

/// r48.x, r0.x and r63.x ("unused") as a3xx_regid encodes them: (n << 2) |
/// component.
pub const R48_X: u32 = 48 << 2;
pub const R0_X: u32 = 0;
pub const R63_X: u32 = 63 << 2;

/// Which registers [`program_cs`] leaves out.
#[derive(Default)]
pub struct Omit {
    pub ctrl_reg0: bool,
}

/// The compute state Turnip's compute.log programs, for a 64x2x1 local size
/// and 64-thread waves, written by register name.
pub fn program_cs(s: &mut Stream, omit: Omit) {
    let chip = s.chip;
    s.reg(&regs::SpCsConfig {
        enabled: true,
        bindless_ibo: true,
        ..Default::default()
    });
    match chip {
        Chip::A6xx => s.reg(&a6xx::HlsqCsCntl {
            constlen: 8,
            enabled: true,
        }),
        Chip::A7xx => s.reg(&a7xx::HlsqCsCntl {
            constlen: 8,
            enabled: true,
            ..Default::default()
        }),
    };
    if !omit.ctrl_reg0 {
        s.reg(&regs::SpCsCtrlReg0 {
            threadsize: A6xxThreadsize::THREAD64,
            mergedregs: true,
            fullregfootprint: 3,
            halfregfootprint: 1,
            ..Default::default()
        });
    }
    s.reg(&regs::SpCsInstrlen(2));
    s.reg(&regs::SpCsObjFirstExecOffset(0));
    s.reg(&regs::SpCsObjStart(PROGRAM));
    s.reg(&regs::SpCsPvtMemParam::default());
    s.reg(&regs::SpCsUnknownA9b1 {
        shared_size: 3,
        unk6: true,
        ..Default::default()
    });
    s.reg(&regs::HlsqCsNdrange0 {
        kerneldim: 3,
        localsizex: 63,
        localsizey: 1,
        localsizez: 0,
    });
    s.reg(&regs::HlsqCsNdrange1 { globalsize_x: 64 });
    s.reg(&regs::HlsqCsNdrange2 { globaloff_x: 0 });
    s.reg(&regs::HlsqCsNdrange3 { globalsize_y: 2 });
    s.reg(&regs::HlsqCsNdrange4 { globaloff_y: 0 });
    s.reg(&regs::HlsqCsNdrange5 { globalsize_z: 1 });
    s.reg(&regs::HlsqCsNdrange6 { globaloff_z: 0 });
    let cntl0 = regs::SpCsCntl0 {
        wgidconstid: R48_X,
        wgsizeconstid: R63_X,
        wgoffsetconstid: R63_X,
        localidregid: R0_X,
    };
    s.reg(&cntl0);
    match chip {
        Chip::A6xx => {
            s.reg(&regs::HlsqCsCntl0 {
                wgidconstid: R48_X,
                wgsizeconstid: R63_X,
                wgoffsetconstid: R63_X,
                localidregid: R0_X,
            });
            s.reg(&a6xx::HlsqCsCntl1 {
                linearlocalidregid: R63_X,
                ..Default::default()
            });
            s.reg(&a6xx::SpCsCntl1 {
                linearlocalidregid: R63_X,
                ..Default::default()
            });
        }
        Chip::A7xx => {
            s.reg(&a7xx::SpCsCntl1 {
                linearlocalidregid: R63_X,
                ..Default::default()
            });
            s.reg(&regs::HlsqCsLastLocalSize {
                localsizex: 63,
                localsizey: 1,
                localsizez: 0,
            });
        }
    }
    s.reg_at(
        &regs::SpCsBindlessBaseDescriptor {
            desc_size: A6xxBindlessDescriptorSize::BINDLESS_DESCRIPTOR_64B,
            addr: BINDLESS,
        },
        0,
    );
}

/// CP_EXEC_CS of `groups` work groups.
pub fn exec_cs(s: &mut Stream, groups: [u32; 3]) {
    s.pkt("CP_EXEC_CS", &[0, groups[0], groups[1], groups[2]]);
}
