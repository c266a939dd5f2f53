/* read-64b (seed 003): 64-byte read() calls from a 1 MiB file, rewound at its end. */
#define BENCH_UNIT "us"
#include "bench.h"
#include <fcntl.h>

static int fd = -1;
static char buf[64];
static long done; /* calls since the last rewind, across runs */

static void bench_setup(int argc, char **argv) {
  int i;
  char block[4096];
  (void) argc; (void) argv;
  fd = open("read-64b.tmp", O_RDWR | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) bench_die("open read-64b.tmp");
  memset(block, 'r', sizeof block);
  for (i = 0; i < 256; i++) {
    if (write(fd, block, sizeof block) != (ssize_t) sizeof block) bench_die("write");
  }
  if (lseek(fd, 0, SEEK_SET) < 0) bench_die("lseek");
}

static void bench_run(long iters) {
  long i;
  for (i = 0; i < iters; i++) {
    if (++done == 16384) {
      done = 0;
      if (lseek(fd, 0, SEEK_SET) < 0) bench_die("lseek");
    }
    if (read(fd, buf, sizeof buf) != (ssize_t) sizeof buf) bench_die("read");
  }
}

static void bench_teardown(void) {
  close(fd);
  unlink("read-64b.tmp");
}
