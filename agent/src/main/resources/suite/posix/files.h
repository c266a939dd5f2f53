/* The directory of 2,000 files that lstat-dir and readdir walk (seed 004); made once, kept. */
#ifndef PERFTRACK_FILES_H
#define PERFTRACK_FILES_H

#include <fcntl.h>
#include <sys/stat.h>

#define FILES_DIR "files.d"
#ifndef FILES_COUNT
#define FILES_COUNT 2000
#endif

static char files_names[FILES_COUNT][32];

static void files_prepare(void) {
  int i;
  struct stat st;
  for (i = 0; i < FILES_COUNT; i++) {
    sprintf(files_names[i], FILES_DIR "/f%04d", i);
  }
  if (lstat(files_names[FILES_COUNT - 1], &st) == 0) {
    return; /* made by an earlier sample: the last file is written last */
  }
  mkdir(FILES_DIR, 0755);
  for (i = 0; i < FILES_COUNT; i++) {
    int fd = open(files_names[i], O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) bench_die("create files.d entry");
    close(fd);
  }
}

#endif
