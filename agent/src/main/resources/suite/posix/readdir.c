/* readdir (seed 004): list a directory of 2,000 files (plus . and ..). */
#define BENCH_UNIT "us"
#define FILES_COUNT 2000
#define BENCH_OPS_PER_ITER (FILES_COUNT + 2)
#include "bench.h"
#include "files.h"
#include <dirent.h>

static void bench_setup(int argc, char **argv) {
  (void) argc; (void) argv;
  files_prepare();
}

static void bench_run(long iters) {
  long i;
  for (i = 0; i < iters; i++) {
    DIR *dir = opendir(FILES_DIR);
    if (dir == NULL) bench_die("opendir");
    while (readdir(dir) != NULL) {
    }
    closedir(dir);
  }
}

static void bench_teardown(void) {}
