// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "util/atomic_file.h"
#include "util/out_stream.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void release(struct atomic_file *af)
{
	free(af->path);
	free(af->tmp_path);
	memset(af, 0, sizeof(*af));
}

int atomic_file_open(struct atomic_file *af, const char *path, char *err, size_t errlen)
{
	struct stat st;
	mode_t mask;
	int fd, rc;

	memset(af, 0, sizeof(*af));
	/* "" (an unset variable in -o "$OUT") would write ./.tmp.* and fail only at the rename. */
	if (!*path) {
		snprintf(err, errlen, "-o '': an empty file name: give a file name for the report");
		return -EINVAL;
	}
	/* A directory or a device is not a report: say so rather than fail at the rename. */
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file: give a file name for the report",
			 path);
		return -EINVAL;
	}
	af->path = strdup(path);
	if (!af->path || asprintf(&af->tmp_path, "%s.tmp.XXXXXX", path) < 0) {
		af->tmp_path = NULL;
		release(af);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	fd = mkstemp(af->tmp_path);
	if (fd < 0) {
		rc = -errno;
		snprintf(err, errlen,
			 "%s: cannot write there: %s (check the directory exists "
			 "and is writable)",
			 path, strerror(errno));
		release(af);
		return rc;
	}
	/* mkstemp's 0600: a report is as readable as any file this user creates. */
	mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	af->f = fdopen(fd, "w");
	if (!af->f) {
		rc = -errno;
		close(fd);
		atomic_file_abort(af);
		snprintf(err, errlen, "%s: %s", path, strerror(-rc));
		return rc;
	}
	return 0;
}

int atomic_file_commit(struct atomic_file *af, char *err, size_t errlen)
{
	int rc = 0;

	if (fflush(af->f) || ferror(af->f) || fsync(fileno(af->f)))
		rc = -(errno ? errno : EIO);
	if (fclose(af->f) && !rc)
		rc = -(errno ? errno : EIO);
	af->f = NULL;
	if (!rc && rename(af->tmp_path, af->path))
		rc = -errno;
	if (rc) {
		snprintf(err, errlen, "%s: cannot write the report: %s (nothing was written)",
			 af->path, out_stream_why(-rc));
		unlink(af->tmp_path);
	}
	release(af);
	return rc;
}

void atomic_file_abort(struct atomic_file *af)
{
	if (af->f)
		fclose(af->f);
	if (af->tmp_path)
		unlink(af->tmp_path);
	release(af);
}
