/* pipe-bw/<bytes> (seed 001): parent->child pipe bandwidth with writes of <bytes>, hbench bw_pipe style. */
#define BENCH_UNIT "MB/s"
static long pipe_bytes = 4096;
#define BENCH_BYTES_PER_OP pipe_bytes
#include "bench.h"
#include <sys/types.h>
#include <sys/wait.h>

static char *buf;

static void bench_setup(int argc, char **argv) {
  if (argc > 0) pipe_bytes = atol(argv[0]);
  if (pipe_bytes <= 0) { fprintf(stderr, "perftrack-error bad buffer size\n"); exit(2); }
  buf = calloc(1, (size_t) pipe_bytes);
  if (buf == NULL) bench_die("calloc");
}

static void write_all(int fd, const char *p, long n) {
  while (n > 0) {
    ssize_t w = write(fd, p, (size_t) n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) bench_die("write pipe");
    p += w;
    n -= w;
  }
}

static void bench_run(long iters) {
  int fds[2];
  long i;
  pid_t pid;
  if (pipe(fds) != 0) bench_die("pipe");
  pid = fork();
  if (pid < 0) bench_die("fork");
  if (pid == 0) {
    close(fds[1]);
    while (read(fds[0], buf, (size_t) pipe_bytes) > 0) {
    }
    _exit(0);
  }
  close(fds[0]);
  for (i = 0; i < iters; i++) {
    write_all(fds[1], buf, pipe_bytes);
  }
  close(fds[1]);
  if (waitpid(pid, NULL, 0) != pid) bench_die("waitpid");
}

static void bench_teardown(void) { free(buf); }
