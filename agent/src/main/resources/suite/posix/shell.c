/* Runs a shell benchmark script: "bash SCRIPT ITERS" once per run, timed as a whole. */
#include <sys/types.h>
#include <sys/wait.h>
static const char *script = "builtins.sh";
static const char *unit_arg = "us";
#define BENCH_UNIT unit_arg
#include "bench.h"

static void bench_setup(int argc, char **argv) {
  if (argc > 0) script = argv[0];
  if (argc > 1) unit_arg = argv[1];
}

static void bench_run(long iters) {
  char count[32];
  int status;
  pid_t pid;
  sprintf(count, "%ld", iters);
  pid = fork();
  if (pid < 0) bench_die("fork");
  if (pid == 0) {
    execlp("bash", "bash", script, count, (char *) NULL);
    _exit(127);
  }
  if (waitpid(pid, &status, 0) != pid) bench_die("waitpid");
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    fprintf(stderr, "perftrack-error %s exited with status %d\n", script, status);
    exit(1);
  }
}

static void bench_teardown(void) {}
