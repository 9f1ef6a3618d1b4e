/* Bad arguments to the msm and DRM core ioctls, as any msm userspace could
 * pass them: prints "<case> <errno name or OK>" for each, for the test to
 * compare with the kernel's answers. Built against the kernel's msm_drm.h
 * and libdrm. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xf86drm.h>
#include "msm_drm.h"

static int fd;

static void report(const char *name, int ret)
{
    printf("%s %s\n", name, ret == 0 ? "OK" : strerrorname_np(errno));
}

#define CHECK(name, req, arg) report(name, drmIoctl(fd, req, arg))

static unsigned bo_new(unsigned size)
{
    struct drm_msm_gem_new n = {.size = size, .flags = MSM_BO_WC};
    if (drmIoctl(fd, DRM_IOCTL_MSM_GEM_NEW, &n))
        return 0;
    return n.handle;
}

static int info(unsigned handle, unsigned what, __u64 *value)
{
    struct drm_msm_gem_info i = {.handle = handle, .info = what, .value = *value};
    int r = drmIoctl(fd, DRM_IOCTL_MSM_GEM_INFO, &i);
    *value = i.value;
    return r;
}

static __u64 param(unsigned p)
{
    struct drm_msm_param a = {.pipe = MSM_PIPE_3D0, .param = p};
    drmIoctl(fd, DRM_IOCTL_MSM_GET_PARAM, &a);
    return a.value;
}

int main(void)
{
    fd = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        perror("open");
        return 1;
    }
    __u64 va_start = param(MSM_PARAM_VA_START), v;

    /* GET_PARAM */
    struct drm_msm_param p = {.pipe = MSM_PIPE_3D0, .param = 0x77};
    CHECK("get_param_unknown", DRM_IOCTL_MSM_GET_PARAM, &p);
    p = (struct drm_msm_param){.pipe = 0, .param = MSM_PARAM_GPU_ID};
    CHECK("get_param_bad_pipe", DRM_IOCTL_MSM_GET_PARAM, &p);

    /* GEM_NEW */
    struct drm_msm_gem_new n = {.size = 4096, .flags = MSM_BO_WC | 0x100};
    CHECK("gem_new_bad_flags", DRM_IOCTL_MSM_GEM_NEW, &n);
    n = (struct drm_msm_gem_new){.size = 4096, .flags = 0};
    CHECK("gem_new_no_cache_mode", DRM_IOCTL_MSM_GEM_NEW, &n);
    n = (struct drm_msm_gem_new){.size = 0, .flags = MSM_BO_WC};
    CHECK("gem_new_size_zero", DRM_IOCTL_MSM_GEM_NEW, &n);

    /* GEM_INFO */
    v = 0;
    report("info_unknown_handle", info(999, MSM_INFO_GET_IOVA, &v));
    unsigned a = bo_new(8192), b = bo_new(4096), c = bo_new(5000);
    v = 0;
    report("info_bad_request", info(a, 7, &v));
    struct drm_msm_gem_info gi = {.handle = a, .info = MSM_INFO_GET_IOVA, .pad = 1};
    CHECK("info_pad", DRM_IOCTL_MSM_GEM_INFO, &gi);
    v = va_start + (1 << 20);
    report("set_iova", info(a, MSM_INFO_SET_IOVA, &v));
    v = va_start + (1 << 20);
    report("set_iova_same_again", info(a, MSM_INFO_SET_IOVA, &v));
    v = va_start + (2 << 20);
    report("set_iova_moving", info(a, MSM_INFO_SET_IOVA, &v));
    v = va_start + (1 << 20) + 4096;
    report("set_iova_overlapping", info(b, MSM_INFO_SET_IOVA, &v));
    v = va_start + (3 << 20) + 16;
    report("set_iova_misaligned", info(b, MSM_INFO_SET_IOVA, &v));
    v = va_start - 4096;
    report("set_iova_below_the_range", info(b, MSM_INFO_SET_IOVA, &v));
    v = 0;
    report("get_offset", info(c, MSM_INFO_GET_OFFSET, &v));
    /* A 5000-byte BO is two pages: a mapping of 8192 bytes is fine, one
     * of three pages is not. */
    void *m = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, v);
    printf("mmap_rounded_size %s\n", m == MAP_FAILED ? strerrorname_np(errno) : "OK");
    void *m3 = mmap(NULL, 3 * 4096, PROT_READ, MAP_SHARED, fd, v);
    printf("mmap_past_the_end %s\n", m3 == MAP_FAILED ? strerrorname_np(errno) : "OK");
    void *mx = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, v + (1ull << 30));
    printf("mmap_unknown_offset %s\n", mx == MAP_FAILED ? strerrorname_np(errno) : "OK");

    /* CPU_PREP */
    struct drm_msm_gem_cpu_prep cp = {.handle = a, .op = 0x100};
    CHECK("cpu_prep_bad_op", DRM_IOCTL_MSM_GEM_CPU_PREP, &cp);
    cp = (struct drm_msm_gem_cpu_prep){.handle = 999, .op = MSM_PREP_READ};
    CHECK("cpu_prep_unknown_handle", DRM_IOCTL_MSM_GEM_CPU_PREP, &cp);

    /* GEM_CLOSE */
    struct drm_gem_close gc = {.handle = 999};
    CHECK("gem_close_unknown", DRM_IOCTL_GEM_CLOSE, &gc);

    /* Submit queues */
    struct drm_msm_submitqueue q = {.prio = 3};
    CHECK("queue_new_bad_priority", DRM_IOCTL_MSM_SUBMITQUEUE_NEW, &q);
    q = (struct drm_msm_submitqueue){.prio = 0};
    CHECK("queue_new", DRM_IOCTL_MSM_SUBMITQUEUE_NEW, &q);
    __u32 id = 0;
    CHECK("queue_close_default", DRM_IOCTL_MSM_SUBMITQUEUE_CLOSE, &id);
    id = 99;
    CHECK("queue_close_unknown", DRM_IOCTL_MSM_SUBMITQUEUE_CLOSE, &id);

    /* GEM_SUBMIT: each refused before anything runs. */
    struct drm_msm_gem_submit_bo bos[2] = {{.flags = MSM_SUBMIT_BO_READ, .handle = b},
                                           {.flags = MSM_SUBMIT_BO_READ, .handle = b}};
    struct drm_msm_gem_submit_cmd cmd = {.type = MSM_SUBMIT_CMD_BUF, .submit_idx = 0, .size = 16};
    struct drm_msm_gem_submit s;
#define SUBMIT(name, ...)                                                                    \
    do {                                                                                     \
        s = (struct drm_msm_gem_submit){.flags = MSM_PIPE_3D0, .nr_bos = 1, .nr_cmds = 1,    \
                                        .bos = (__u64)(uintptr_t)bos,                        \
                                        .cmds = (__u64)(uintptr_t)&cmd, .queueid = q.id,     \
                                        .syncobj_stride = sizeof(struct drm_msm_gem_submit_syncobj), \
                                        __VA_ARGS__};                                        \
        CHECK(name, DRM_IOCTL_MSM_GEM_SUBMIT, &s);                                           \
    } while (0)
    SUBMIT("submit_unknown_queue", .queueid = 77);
    SUBMIT("submit_bad_pipe", .flags = 0x20);
    SUBMIT("submit_bad_flags", .flags = MSM_PIPE_3D0 | 0x00800000);
    SUBMIT("submit_pad", .pad = 1);
    SUBMIT("submit_duplicate_bo", .nr_bos = 2);
    SUBMIT("submit_bad_bo_pointer", .bos = 8);
    bos[0].flags = 0;
    SUBMIT("submit_bo_without_read_or_write");
    bos[0].flags = MSM_SUBMIT_BO_READ;
    cmd.size = 6;
    SUBMIT("submit_misaligned_size");
    cmd.size = 0;
    SUBMIT("submit_empty_cmd");
    cmd.size = 8192;
    SUBMIT("submit_cmd_past_the_bo");
    cmd.size = 16;
    cmd.submit_idx = 1;
    SUBMIT("submit_bad_bo_index");
    cmd.submit_idx = 0;
    cmd.type = 9;
    SUBMIT("submit_bad_cmd_type");
    cmd.type = MSM_SUBMIT_CMD_BUF;
    struct drm_msm_gem_submit_syncobj sy = {.handle = 555};
    SUBMIT("submit_unknown_in_syncobj", .flags = MSM_PIPE_3D0 | MSM_SUBMIT_SYNCOBJ_IN,
           .in_syncobjs = (__u64)(uintptr_t)&sy, .nr_in_syncobjs = 1);
    uint32_t so;
    drmSyncobjCreate(fd, 0, &so);
    sy.handle = so;
    SUBMIT("submit_in_syncobj_with_no_fence", .flags = MSM_PIPE_3D0 | MSM_SUBMIT_SYNCOBJ_IN,
           .in_syncobjs = (__u64)(uintptr_t)&sy, .nr_in_syncobjs = 1);
    gc.handle = b;
    CHECK("gem_close", DRM_IOCTL_GEM_CLOSE, &gc);
    SUBMIT("submit_naming_a_freed_bo");

    /* WAIT_FENCE */
    struct drm_msm_wait_fence w = {.fence = 1000, .queueid = q.id};
    CHECK("wait_fence_never_submitted", DRM_IOCTL_MSM_WAIT_FENCE, &w);
    w.queueid = 77;
    CHECK("wait_fence_unknown_queue", DRM_IOCTL_MSM_WAIT_FENCE, &w);

    /* Syncobjs */
    uint32_t bad = 4444;
    report("syncobj_wait_unknown", drmSyncobjWait(fd, &bad, 1, 0, 0, NULL));
    report("syncobj_wait_no_fence", drmSyncobjWait(fd, &so, 1, 0, 0, NULL));
    report("syncobj_wait_for_submit_expires",
           drmSyncobjWait(fd, &so, 1, 0, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT, NULL));
    report("syncobj_signal", drmSyncobjSignal(fd, &so, 1));
    report("syncobj_wait_signalled", drmSyncobjWait(fd, &so, 1, 0, 0, NULL));
    report("syncobj_destroy_unknown", drmSyncobjDestroy(fd, bad));

    /* PRIME */
    int dmabuf = -1;
    report("prime_export", drmPrimeHandleToFD(fd, a, DRM_CLOEXEC, &dmabuf));
    printf("dmabuf_size %lld\n", (long long)lseek(dmabuf, 0, SEEK_END));
    int other = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
    uint32_t imported = 0, again = 0;
    int saved = fd;
    fd = other;
    report("prime_import_in_another_file", drmPrimeFDToHandle(fd, dmabuf, &imported));
    report("prime_import_again", drmPrimeFDToHandle(fd, dmabuf, &again));
    printf("same_handle %s\n", imported == again ? "yes" : "no");
    int null_fd = open("/dev/null", O_RDONLY);
    report("prime_import_not_a_dmabuf", drmPrimeFDToHandle(fd, null_fd, &again));
    report("prime_import_closed_fd", drmPrimeFDToHandle(fd, 999, &again));
    fd = saved;
    report("prime_export_unknown", drmPrimeHandleToFD(fd, 999, DRM_CLOEXEC, &dmabuf));

    /* Sync files: the signalled syncobj's fence, readable at once. */
    int in_fd = -1;
    report("sync_file_export", drmSyncobjExportSyncFile(fd, so, &in_fd));
    struct pollfd pf = {.fd = in_fd, .events = POLLIN};
    printf("sync_file_readable %d\n", poll(&pf, 1, 0));

    /* A stream the CP cannot run (zeroed memory) behind a fence fd: the
     * kernel's recovery retires it, signals its out fence and counts the
     * fault for this file and this queue, not for a new file. */
    unsigned cs = bo_new(4096);
    struct drm_msm_gem_submit_bo cbo = {.flags = MSM_SUBMIT_BO_READ, .handle = cs};
    struct drm_msm_gem_submit_cmd ccmd = {.type = MSM_SUBMIT_CMD_BUF, .size = 16};
    s = (struct drm_msm_gem_submit){
        .flags = MSM_PIPE_3D0 | MSM_SUBMIT_FENCE_FD_IN | MSM_SUBMIT_FENCE_FD_OUT,
        .fence_fd = in_fd, .nr_bos = 1, .nr_cmds = 1, .bos = (__u64)(uintptr_t)&cbo,
        .cmds = (__u64)(uintptr_t)&ccmd, .queueid = q.id};
    CHECK("submit_with_fence_fds", DRM_IOCTL_MSM_GEM_SUBMIT, &s);
    pf = (struct pollfd){.fd = s.fence_fd, .events = POLLIN};
    printf("out_fence_readable %d\n", poll(&pf, 1, 10000));
    printf("faults %llu\n", (unsigned long long)param(MSM_PARAM_FAULTS));
    __u32 qfaults = 0;
    struct drm_msm_submitqueue_query qq = {.data = (__u64)(uintptr_t)&qfaults, .id = q.id,
                                           .param = MSM_SUBMITQUEUE_PARAM_FAULTS, .len = 4};
    CHECK("queue_query", DRM_IOCTL_MSM_SUBMITQUEUE_QUERY, &qq);
    printf("queue_faults %u\n", qfaults);
    fd = open("/dev/dri/renderD128", O_RDWR | O_CLOEXEC);
    printf("new_file_faults %llu\n", (unsigned long long)param(MSM_PARAM_FAULTS));
    return 0;
}
