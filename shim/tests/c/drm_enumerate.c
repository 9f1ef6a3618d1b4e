/* libdrm's own device enumeration and version query, as any msm userspace
 * (Turnip, freedreno) starts: prints what it found, one fact a line. */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include <xf86drm.h>

int main(void)
{
    drmDevicePtr devices[8];
    int n = drmGetDevices2(0, devices, 8);
    printf("devices %d\n", n);
    for (int i = 0; i < n; i++) {
        drmDevicePtr d = devices[i];
        printf("bustype %s\n", d->bustype == DRM_BUS_PLATFORM ? "platform" : "other");
        for (int node = 0; node < DRM_NODE_MAX; node++)
            if (d->available_nodes & (1 << node))
                printf("node %d %s\n", node, d->nodes[node]);
        if (d->bustype == DRM_BUS_PLATFORM) {
            printf("fullname %s\n", d->businfo.platform->fullname);
            for (char **c = d->deviceinfo.platform->compatible; c && *c; c++)
                printf("compatible %s\n", *c);
        }
        if (!(d->available_nodes & (1 << DRM_NODE_RENDER)))
            continue;
        int fd = open(d->nodes[DRM_NODE_RENDER], O_RDWR | O_CLOEXEC);
        if (fd < 0) {
            perror("open");
            return 1;
        }
        drmVersionPtr v = drmGetVersion(fd);
        if (!v) {
            perror("drmGetVersion");
            return 1;
        }
        printf("driver %s %d.%d.%d\n", v->name, v->version_major, v->version_minor,
               v->version_patchlevel);
        printf("desc %s\n", v->desc);
        drmFreeVersion(v);
        char *name = drmGetDeviceNameFromFd2(fd);
        printf("name-from-fd %s\n", name ? name : "(null)");
        uint64_t cap = 0;
        int ret = drmGetCap(fd, DRM_CAP_SYNCOBJ_TIMELINE, &cap);
        printf("timeline-syncobj-cap %d %llu\n", ret, (unsigned long long)cap);
        close(fd);
    }
    drmFreeDevices(devices, n);
    return 0;
}
