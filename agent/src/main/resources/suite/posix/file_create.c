/* file-create (seed 004): create, write 1 KiB, close 1,000 files, then unlink them. */
#define BENCH_UNIT "us"
#define BENCH_OPS_PER_ITER 1000
#include "bench.h"
#include <fcntl.h>
#include <sys/stat.h>

static char names[1000][32];
static char block[1024];

static void bench_setup(int argc, char **argv) {
  int i;
  (void) argc; (void) argv;
  mkdir("create.d", 0755);
  for (i = 0; i < 1000; i++) {
    sprintf(names[i], "create.d/c%04d", i);
  }
  memset(block, 'c', sizeof block);
}

static void bench_run(long iters) {
  long i;
  int f;
  for (i = 0; i < iters; i++) {
    for (f = 0; f < 1000; f++) {
      int fd = open(names[f], O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (fd < 0) bench_die("open create.d entry");
      if (write(fd, block, sizeof block) != (ssize_t) sizeof block) bench_die("write");
      close(fd);
    }
    for (f = 0; f < 1000; f++) {
      if (unlink(names[f]) != 0) bench_die("unlink");
    }
  }
}

static void bench_teardown(void) {}
