/*
 * output.c -- the files a command writes (gen -o, replay --results): what
 * a user of a Unix tool expects of them.
 *
 *   "-"                  stdout, written directly
 *   absent, or a regular file
 *                        written to a temporary file in the target's
 *                        directory and renamed over the target only when
 *                        the command succeeds: the target is complete or
 *                        untouched, never half written
 *   one of the command's inputs (same device and inode)
 *                        refused, --force or not
 *   a directory          refused
 *   a device, a FIFO, a symbolic link
 *                        refused unless --force, then written directly
 *                        through (a device node or a link is never replaced
 *                        by a regular file)
 * Every write error -- at a write, at fflush, at close, at the rename -- is
 * an error naming the file and the system's reason (exit 2).
 */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int refuse(const char *cmd, const char *flag, const char *target, const char *why, bool forceable) {
    fprintf(stderr, "filterlab %s: %s %s: %s%s\n", cmd, flag, target, why,
            forceable ? " (--force writes to it anyway)" : "");
    return FL_EXIT_USAGE;
}

static const char *kind_of(mode_t m) {
    if (S_ISLNK(m)) return "is a symbolic link: writing through it would change the file it points to";
    if (S_ISCHR(m) || S_ISBLK(m)) return "is a device";
    if (S_ISFIFO(m)) return "is a FIFO";
    if (S_ISSOCK(m)) return "is a socket";
    return NULL;
}

int fl_cli_out_open(fl_cli_out *o, const char *cmd, const char *flag, const char *target, bool force,
                    const char *const *inputs, size_t ninputs) {
    memset(o, 0, sizeof *o);
    o->target = target;
    if (strcmp(target, "-") == 0) {
        o->f = stdout;
        o->direct = true;
        return FL_EXIT_OK;
    }
    struct stat st, in;
    bool exists = stat(target, &st) == 0;
    for (size_t i = 0; exists && i < ninputs; i++)
        if (inputs[i] && strcmp(inputs[i], "-") != 0 && stat(inputs[i], &in) == 0 &&
            in.st_dev == st.st_dev && in.st_ino == st.st_ino)
            return refuse(cmd, flag, target, "is an input of this run: writing it would destroy it", false);
    if (exists && S_ISDIR(st.st_mode)) return refuse(cmd, flag, target, "is a directory", false);
    struct stat lst;
    const char *odd = lstat(target, &lst) == 0 ? kind_of(lst.st_mode) : NULL;
    if (odd) {
        if (!force) return refuse(cmd, flag, target, odd, true);
        if (!(o->f = fopen(target, "w"))) {
            fprintf(stderr, "filterlab %s: %s %s: %s\n", cmd, flag, target, strerror(errno));
            return FL_EXIT_USAGE;
        }
        o->direct = true;
        return FL_EXIT_OK;
    }
    if (snprintf(o->tmp, sizeof o->tmp, "%s.tmp.XXXXXX", target) >= (int)sizeof o->tmp) {
        o->tmp[0] = 0;
        return refuse(cmd, flag, target, "path too long", false);
    }
    int fd = mkstemp(o->tmp);
    if (fd >= 0) {
        mode_t mask = umask(0);                  /* mkstemp makes 0600: the usual mode */
        umask(mask);
        fchmod(fd, exists ? st.st_mode & 07777 : 0666 & ~mask);
    }
    if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
        fprintf(stderr, "filterlab %s: %s %s: cannot create the file: %s\n", cmd, flag, target,
                strerror(errno));
        if (fd >= 0) { close(fd); unlink(o->tmp); }
        o->tmp[0] = 0;
        return FL_EXIT_USAGE;
    }
    return FL_EXIT_OK;
}

int fl_cli_out_close(fl_cli_out *o, const char *cmd, const char *flag, bool keep) {
    if (!o->f) return FL_EXIT_OK;
    int err = 0;
    if (fflush(o->f) != 0 || ferror(o->f)) err = errno ? errno : EIO;
    if (o->f != stdout && fclose(o->f) != 0 && !err) err = errno ? errno : EIO;
    o->f = NULL;
    if (o->tmp[0]) {
        if (keep && !err && rename(o->tmp, o->target) != 0) err = errno;
        if (!keep || err) unlink(o->tmp);
        o->tmp[0] = 0;
    }
    if (err) {
        if (strcmp(o->target, "-") == 0) fprintf(stderr, "filterlab %s: stdout: %s\n", cmd, strerror(err));
        else fprintf(stderr, "filterlab %s: %s %s: %s\n", cmd, flag, o->target, strerror(err));
        return FL_EXIT_USAGE;
    }
    return FL_EXIT_OK;
}
