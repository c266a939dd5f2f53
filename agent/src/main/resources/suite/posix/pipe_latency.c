/* pipe-latency (seed 001): one-byte ping-pong over two pipes between parent and child. */
#define BENCH_UNIT "us"
#include "bench.h"
#include <sys/types.h>
#include <sys/wait.h>

static int to_child[2], to_parent[2];
static pid_t child;

static void bench_setup(int argc, char **argv) {
  char c;
  (void) argc; (void) argv;
  if (pipe(to_child) != 0 || pipe(to_parent) != 0) bench_die("pipe");
  child = fork();
  if (child < 0) bench_die("fork");
  if (child == 0) {
    close(to_child[1]);
    close(to_parent[0]);
    while (read(to_child[0], &c, 1) == 1) {
      if (write(to_parent[1], &c, 1) != 1) _exit(1);
    }
    _exit(0);
  }
  close(to_child[0]);
  close(to_parent[1]);
}

static void bench_run(long iters) {
  long i;
  char c = 'p';
  for (i = 0; i < iters; i++) {
    if (write(to_child[1], &c, 1) != 1) bench_die("write pipe");
    if (read(to_parent[0], &c, 1) != 1) bench_die("read pipe");
  }
}

static void bench_teardown(void) {
  close(to_child[1]);
  close(to_parent[0]);
  waitpid(child, NULL, 0);
}
