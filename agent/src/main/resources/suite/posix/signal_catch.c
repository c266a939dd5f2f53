/* signal-catch: kill(self) delivered to a handler. */
#define BENCH_UNIT "us"
#include "bench.h"
#include <signal.h>

static volatile sig_atomic_t caught;

static void on_signal(int sig) {
  (void) sig;
  caught++;
}

static void bench_setup(int argc, char **argv) {
  struct sigaction sa;
  (void) argc; (void) argv;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  if (sigaction(SIGUSR1, &sa, NULL) != 0) bench_die("sigaction");
}

static void bench_run(long iters) {
  long i;
  pid_t self = getpid();
  for (i = 0; i < iters; i++) {
    if (kill(self, SIGUSR1) != 0) bench_die("kill");
  }
}

static void bench_teardown(void) {}
