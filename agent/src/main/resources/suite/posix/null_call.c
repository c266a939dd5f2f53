/* null-call: getppid(), the bare cost of entering the layer; the control benchmark. */
#define BENCH_UNIT "ns"
#include "bench.h"

static volatile pid_t sink;

static void bench_setup(int argc, char **argv) { (void) argc; (void) argv; }

static void bench_run(long iters) {
  long i;
  for (i = 0; i < iters; i++) {
    sink = getppid();
  }
}

static void bench_teardown(void) {}
