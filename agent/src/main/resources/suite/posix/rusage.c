/*
 * rusage PROGRAM [args]: runs PROGRAM, waits for it with wait4() and prints what the kernel counted for
 * it and the children it waited for: one "perftrack-rusage ..." line after the program's own output.
 * Unlike perf stat it needs no privilege. Java cannot call wait4, hence this helper; it is compiled
 * with the target's own compiler like the benchmarks. (Cygwin leaves the context switches at 0.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <sys/types.h>
#include <sys/time.h>
#include <sys/resource.h>
#include <sys/wait.h>

static double seconds(struct timeval tv) {
  return tv.tv_sec + tv.tv_usec / 1e6;
}

int main(int argc, char **argv) {
  pid_t pid;
  int status;
  struct rusage ru;
  if (argc < 2) {
    fprintf(stderr, "usage: %s PROGRAM [args]\n", argv[0]);
    return 2;
  }
  fflush(stdout);
  pid = fork();
  if (pid < 0) {
    fprintf(stderr, "perftrack-error fork: %s\n", strerror(errno));
    return 1;
  }
  if (pid == 0) {
    execv(argv[1], argv + 1);
    fprintf(stderr, "perftrack-error exec %s: %s\n", argv[1], strerror(errno));
    _exit(127);
  }
  memset(&ru, 0, sizeof ru);
  if (wait4(pid, &status, 0, &ru) != pid) {
    fprintf(stderr, "perftrack-error wait4: %s\n", strerror(errno));
    return 1;
  }
  printf("perftrack-rusage user=%.6f sys=%.6f nvcsw=%ld nivcsw=%ld minflt=%ld majflt=%ld\n",
      seconds(ru.ru_utime), seconds(ru.ru_stime), (long) ru.ru_nvcsw, (long) ru.ru_nivcsw,
      (long) ru.ru_minflt, (long) ru.ru_majflt);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
