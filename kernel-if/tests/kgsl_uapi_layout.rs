//! Our kgsl structs and ioctl numbers against the Android kernel's
//! `msm_kgsl.h`, worked out by hand from the header for a 64-bit process:
//! no kgsl header is installed to compile against, so the sizes, the
//! offsets of the fields that follow padding or pointers, and the request
//! numbers (`_IOWR(0x09, nr, size)` = `0xc0000000 | size << 16 | 0x09 << 8
//! | nr`, `_IOW` with `0x40000000`) are written out here.

use std::mem::{offset_of, size_of};

use parsnip_kernel_if::kgsl::uapi::*;

#[test]
fn kgsl_struct_sizes_are_the_headers() {
    // (struct, size): unsigned long, size_t and pointers are 8 bytes.
    let sizes = [
        ("kgsl_devinfo", size_of::<KgslDevinfo>(), 40),
        ("kgsl_version", size_of::<KgslVersion>(), 16),
        (
            "kgsl_device_getproperty",
            size_of::<KgslDeviceGetproperty>(),
            24,
        ),
        (
            "kgsl_device_waittimestamp_ctxtid",
            size_of::<KgslDeviceWaittimestampCtxtid>(),
            12,
        ),
        (
            "kgsl_cmdstream_readtimestamp_ctxtid",
            size_of::<KgslCmdstreamReadtimestampCtxtid>(),
            12,
        ),
        ("kgsl_drawctxt_create", size_of::<KgslDrawctxtCreate>(), 8),
        ("kgsl_drawctxt_destroy", size_of::<KgslDrawctxtDestroy>(), 4),
        ("kgsl_gpumem_alloc_id", size_of::<KgslGpumemAllocId>(), 48),
        ("kgsl_gpumem_free_id", size_of::<KgslGpumemFreeId>(), 8),
        ("kgsl_gpumem_get_info", size_of::<KgslGpumemGetInfo>(), 72),
        ("kgsl_gpuobj_alloc", size_of::<KgslGpuobjAlloc>(), 48),
        ("kgsl_gpuobj_free", size_of::<KgslGpuobjFree>(), 32),
        ("kgsl_gpuobj_info", size_of::<KgslGpuobjInfo>(), 48),
        ("kgsl_gpuobj_import", size_of::<KgslGpuobjImport>(), 32),
        ("kgsl_command_object", size_of::<KgslCommandObject>(), 32),
        (
            "kgsl_command_syncpoint",
            size_of::<KgslCommandSyncpoint>(),
            24,
        ),
        (
            "kgsl_cmd_syncpoint_timestamp",
            size_of::<KgslCmdSyncpointTimestamp>(),
            8,
        ),
        ("kgsl_gpu_command", size_of::<KgslGpuCommand>(), 64),
        ("kgsl_timestamp_event", size_of::<KgslTimestampEvent>(), 32),
    ];
    let wrong: Vec<_> = sizes
        .iter()
        .filter(|(_, ours, want)| ours != want)
        .collect();
    assert!(wrong.is_empty(), "(struct, ours, header): {wrong:?}");
}

#[test]
fn kgsl_fields_after_padding_are_where_the_header_puts_them() {
    let offsets = [
        (
            "kgsl_devinfo.gmem_gpubaseaddr",
            offset_of!(KgslDevinfo, gmem_gpubaseaddr),
            16,
        ),
        ("kgsl_devinfo.gpu_id", offset_of!(KgslDevinfo, gpu_id), 24),
        (
            "kgsl_devinfo.gmem_sizebytes",
            offset_of!(KgslDevinfo, gmem_sizebytes),
            32,
        ),
        (
            "kgsl_device_getproperty.value",
            offset_of!(KgslDeviceGetproperty, value),
            8,
        ),
        (
            "kgsl_gpumem_alloc_id.size",
            offset_of!(KgslGpumemAllocId, size),
            8,
        ),
        (
            "kgsl_gpumem_alloc_id.gpuaddr",
            offset_of!(KgslGpumemAllocId, gpuaddr),
            24,
        ),
        (
            "kgsl_gpumem_get_info.id",
            offset_of!(KgslGpumemGetInfo, id),
            8,
        ),
        (
            "kgsl_gpumem_get_info.useraddr",
            offset_of!(KgslGpumemGetInfo, useraddr),
            32,
        ),
        ("kgsl_gpuobj_alloc.id", offset_of!(KgslGpuobjAlloc, id), 32),
        (
            "kgsl_gpuobj_alloc.metadata",
            offset_of!(KgslGpuobjAlloc, metadata),
            40,
        ),
        ("kgsl_gpuobj_free.id", offset_of!(KgslGpuobjFree, id), 16),
        ("kgsl_gpuobj_info.id", offset_of!(KgslGpuobjInfo, id), 40),
        (
            "kgsl_gpuobj_import.id",
            offset_of!(KgslGpuobjImport, id),
            28,
        ),
        (
            "kgsl_command_object.flags",
            offset_of!(KgslCommandObject, flags),
            24,
        ),
        (
            "kgsl_command_syncpoint.type",
            offset_of!(KgslCommandSyncpoint, r#type),
            16,
        ),
        (
            "kgsl_gpu_command.objlist",
            offset_of!(KgslGpuCommand, objlist),
            24,
        ),
        (
            "kgsl_gpu_command.synclist",
            offset_of!(KgslGpuCommand, synclist),
            40,
        ),
        (
            "kgsl_gpu_command.context_id",
            offset_of!(KgslGpuCommand, context_id),
            56,
        ),
        (
            "kgsl_gpu_command.timestamp",
            offset_of!(KgslGpuCommand, timestamp),
            60,
        ),
        (
            "kgsl_timestamp_event.priv",
            offset_of!(KgslTimestampEvent, r#priv),
            16,
        ),
        (
            "kgsl_timestamp_event.len",
            offset_of!(KgslTimestampEvent, len),
            24,
        ),
    ];
    let wrong: Vec<_> = offsets
        .iter()
        .filter(|(_, ours, want)| ours != want)
        .collect();
    assert!(wrong.is_empty(), "(field, ours, header): {wrong:?}");
}

#[test]
fn kgsl_request_numbers_are_the_headers() {
    let numbers = [
        (
            "DEVICE_GETPROPERTY",
            IOCTL_KGSL_DEVICE_GETPROPERTY,
            0xc018_0902u64,
        ),
        (
            "DEVICE_WAITTIMESTAMP_CTXTID",
            IOCTL_KGSL_DEVICE_WAITTIMESTAMP_CTXTID,
            0x400c_0907,
        ),
        ("DRAWCTXT_CREATE", IOCTL_KGSL_DRAWCTXT_CREATE, 0xc008_0913),
        ("DRAWCTXT_DESTROY", IOCTL_KGSL_DRAWCTXT_DESTROY, 0x4004_0914),
        (
            "CMDSTREAM_READTIMESTAMP_CTXTID",
            IOCTL_KGSL_CMDSTREAM_READTIMESTAMP_CTXTID,
            0xc00c_0916,
        ),
        ("TIMESTAMP_EVENT", IOCTL_KGSL_TIMESTAMP_EVENT, 0xc020_0933),
        ("GPUMEM_ALLOC_ID", IOCTL_KGSL_GPUMEM_ALLOC_ID, 0xc030_0934),
        ("GPUMEM_FREE_ID", IOCTL_KGSL_GPUMEM_FREE_ID, 0xc008_0935),
        ("GPUMEM_GET_INFO", IOCTL_KGSL_GPUMEM_GET_INFO, 0xc048_0936),
        ("GPUOBJ_ALLOC", IOCTL_KGSL_GPUOBJ_ALLOC, 0xc030_0945),
        ("GPUOBJ_FREE", IOCTL_KGSL_GPUOBJ_FREE, 0x4020_0946),
        ("GPUOBJ_INFO", IOCTL_KGSL_GPUOBJ_INFO, 0xc030_0947),
        ("GPUOBJ_IMPORT", IOCTL_KGSL_GPUOBJ_IMPORT, 0xc020_0948),
        ("GPU_COMMAND", IOCTL_KGSL_GPU_COMMAND, 0xc040_094a),
    ];
    let wrong: Vec<_> = numbers
        .iter()
        .filter(|(_, ours, want)| ours != want)
        .collect();
    assert!(wrong.is_empty(), "(ioctl, ours, header): {wrong:x?}");
    println!("{} kgsl request numbers match", numbers.len());
}
