/* spawn (seed 000): fork + exec of a trivial program (this one, which exits at once with "exit"). */
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
    if (pid == 0) {
      execl(bench_self, bench_self, "exit", (char *) NULL);
      _exit(127);
    }
    if (waitpid(pid, NULL, 0) != pid) bench_die("waitpid");
  }
}

static void bench_teardown(void) {}
