/* lstat-dir (seed 004): lstat() every entry of a directory of 2,000 files. */
#define BENCH_UNIT "us"
#define FILES_COUNT 2000
#define BENCH_OPS_PER_ITER FILES_COUNT
#include "bench.h"
#include "files.h"

static void bench_setup(int argc, char **argv) {
  (void) argc; (void) argv;
  files_prepare();
}

static void bench_run(long iters) {
  long i;
  int f;
  struct stat st;
  for (i = 0; i < iters; i++) {
    for (f = 0; f < FILES_COUNT; f++) {
      if (lstat(files_names[f], &st) != 0) bench_die("lstat");
    }
  }
}

static void bench_teardown(void) {}
