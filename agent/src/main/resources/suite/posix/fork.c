/* fork (seed 002): fork + _exit + waitpid. */
#define BENCH_UNIT "us"
#include "bench.h"
#include <sys/types.h>
#include <sys/wait.h>

static void bench_setup(int argc, char **argv) { (void) argc; (void) argv; }

static void bench_run(long iters) {
  long i;
  for (i = 0; i < iters; i++) {
    pid_t pid = fork();
    if (pid < 0) bench_die("fork");
    if (pid == 0) _exit(0);
    if (waitpid(pid, NULL, 0) != pid) bench_die("waitpid");
  }
}

static void bench_teardown(void) {}
