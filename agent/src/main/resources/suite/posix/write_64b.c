/* write-64b (seed 003): 64-byte write() calls to a file, rewound every MiB so it stays small. */
#define BENCH_UNIT "us"
#include "bench.h"
#include <fcntl.h>

static int fd = -1;
static char buf[64];
static long done; /* calls since the last rewind, across runs */

static void bench_setup(int argc, char **argv) {
  (void) argc; (void) argv;
  fd = open("write-64b.tmp", O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) bench_die("open write-64b.tmp");
  memset(buf, 'x', sizeof buf);
}

static void bench_run(long iters) {
  long i;
  for (i = 0; i < iters; i++) {
    if (++done == 16384) {
      done = 0;
      if (lseek(fd, 0, SEEK_SET) < 0) bench_die("lseek");
    }
    if (write(fd, buf, sizeof buf) != (ssize_t) sizeof buf) bench_die("write");
  }
}

static void bench_teardown(void) {
  close(fd);
  unlink("write-64b.tmp");
}
