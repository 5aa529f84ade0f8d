/* A file read through a read-only mapping (file_map.h). */
#include "util/file_map.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cuzk/err.h"

/* A file mapped read-only (or an empty one, data NULL). */
typedef struct {
    const uint8_t *data;
    size_t len;
} file_map;

static int map_open(file_map *m, const char *path, char *err, size_t errlen)
{
    struct stat st;
    void *p;
    int fd;
    m->data = NULL;
    m->len = 0;
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return cz_fail(err, errlen, CZ_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        int e = errno;
        close(fd);
        return cz_fail(err, errlen, CZ_ERR_IO, "%s: not a regular file%s%s", path, e ? ": " : "",
                       e ? strerror(e) : "");
    }
    if (st.st_size == 0) { /* mmap of length 0 fails; an empty image */
        close(fd);
        return CZ_OK;
    }
    if ((uint64_t)st.st_size > SIZE_MAX) {
        close(fd);
        return cz_fail(err, errlen, CZ_ERR_IO, "%s: too large to map", path);
    }
    p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
        int e = errno;
        close(fd);
        return cz_fail(err, errlen, CZ_ERR_IO, "%s: mmap: %s", path, strerror(e));
    }
    close(fd);
    m->data = p;
    m->len = (size_t)st.st_size;
    return CZ_OK;
}

static void map_close(file_map *m)
{
    if (m->data != NULL)
        munmap((void *)(uintptr_t)m->data, m->len);
    m->data = NULL;
    m->len = 0;
}

int cz_file_read_mapped(const char *path, cz_file_reader *rd, void *out, char *err, size_t errlen)
{
    file_map m;
    if (path == NULL)
        return CZ_ERR_INVALID_ARG;
    int rc = map_open(&m, path, err, errlen);
    if (rc != CZ_OK)
        return rc;
    rc = rd(out, m.data, m.len, err, errlen);
    map_close(&m);
    return rc;
}
