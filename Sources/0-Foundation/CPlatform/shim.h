#ifndef COMMISSARY_CPLATFORM_SHIM_H
#define COMMISSARY_CPLATFORM_SHIM_H

#include <errno.h>
#include <stdint.h>
#include <unistd.h>
#ifdef __linux__
#include <malloc.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#endif

/* What the C library offers that Swift's Glibc module leaves out: mallopt(3) (<malloc.h>), and
   the calls below. */

/* ioctl(2)'s FICLONE, which is variadic and so cannot be called from Swift: makes the file open
   as `target` share every extent of the one open as `source`, copy on write, in constant time,
   where the file system can (XFS with reflink, Btrfs, bcachefs). Returns -1 with errno
   EOPNOTSUPP, EXDEV or EINVAL (ext4, tmpfs, two file systems) where it cannot, and the caller
   copies the bytes instead. The request's value (_IOW(0x94, 9, int)) is spelled out, because
   older systems' headers lack it in <linux/fs.h>. */
static inline int commissary_clone_file(int target, int source) {
#ifdef __linux__
    return ioctl(target, 0x40049409UL, source);
#else
    (void)target; (void)source;
    errno = EOPNOTSUPP;
    return -1;
#endif
}

/* openat2(2), Linux 5.6 and later, reached through syscall(2), which is variadic and so cannot
   be called from Swift. Opens `path` under the folder open as `folder` with `flags`, following
   no symbolic link on the way (RESOLVE_NO_SYMLINKS) and never leaving the folder
   (RESOLVE_BENEATH): the file opened lies in that folder by construction, with no check after
   the open for a swap to race. Returns -1 with errno ELOOP when a link is on the way, and
   ENOSYS where the kernel, or a sandbox's filter, does not offer the call. The flag values and
   the call's number (437 on every architecture since Linux 5.6) are spelled out, because older
   systems' headers lack <linux/openat2.h>. */
static inline int commissary_open_beneath(int folder, const char *path, int flags) {
#ifdef __linux__
    struct { uint64_t flags; uint64_t mode; uint64_t resolve; } how = {
        (uint64_t)(unsigned int)flags, 0, 0x04 /* RESOLVE_NO_SYMLINKS */ | 0x08 /* RESOLVE_BENEATH */
    };
    return (int)syscall(437, folder, path, &how, sizeof how);
#else
    (void)folder; (void)path; (void)flags;
    errno = ENOSYS;
    return -1;
#endif
}

#endif
