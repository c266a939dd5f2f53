/* sigprocmask (seed 000): setting the mask it already has, as bash does before every command. */
#define BENCH_UNIT "ns"
#include "bench.h"
#include <signal.h>

static sigset_t current;

static void bench_setup(int argc, char **argv) {
  (void) argc; (void) argv;
  if (sigprocmask(SIG_SETMASK, NULL, &current) != 0) bench_die("sigprocmask");
}

static void bench_run(long iters) {
  long i;
  for (i = 0; i < iters; i++) {
    if (sigprocmask(SIG_SETMASK, &current, NULL) != 0) bench_die("sigprocmask");
  }
}

static void bench_teardown(void) {}
