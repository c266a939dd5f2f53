/*
 * Shared harness of the perftrack posix suite: timing, calibration, output.
 *
 * A program defines BENCH_UNIT ("ns", "us", "s" or "MB/s"), BENCH_OPS_PER_ITER (operations in one
 * call of bench_iter, e.g. 2000 files) and, for bandwidth, BENCH_BYTES_PER_OP; then the functions
 * bench_setup (untimed), bench_run (time `iters` iterations) and bench_teardown.
 *
 *   prog calibrate SCALE [args]   grows the iteration count until one run lasts >= 0.5 s * SCALE,
 *                                 prints "perftrack-calibrated iters=N"
 *   prog sample ITERS [args]      one untimed warm-up (ITERS/10), then one timed run of ITERS,
 *                                 prints one "perftrack-sample ..." line
 *   prog profile ITERS [args]     exactly ITERS iterations, no warm-up, no clock, then prints
 *                                 "perftrack-profiled ops=N": what a tracer (strace, perf, the rusage
 *                                 wrapper) watches from outside
 *
 * Portable to old Cygwin: gettimeofday where CLOCK_MONOTONIC is missing, no syscall(),
 * context switches from the system-wide /proc/stat "ctxt" line (getrusage leaves them 0 on Cygwin).
 */
#ifndef PERFTRACK_BENCH_H
#define PERFTRACK_BENCH_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>
#include <time.h>
#include <sys/time.h>
#include <sys/resource.h>
#if defined(__FreeBSD__) || defined(__DragonFly__)
#include <sys/types.h>
#include <sys/sysctl.h>
#endif

#ifndef BENCH_OPS_PER_ITER
#define BENCH_OPS_PER_ITER 1
#endif

static void bench_setup(int argc, char **argv);
static void bench_run(long iters);
static void bench_teardown(void);

static const char *bench_self; /* argv[0], for programs that exec themselves */

static void bench_die(const char *what) {
  fprintf(stderr, "perftrack-error %s: %s\n", what, strerror(errno));
  exit(1);
}

static double bench_now(void) {
#if defined(CLOCK_MONOTONIC)
  struct timespec ts;
  if (clock_gettime(CLOCK_MONOTONIC, &ts) == 0) {
    return ts.tv_sec + ts.tv_nsec / 1e9;
  }
#endif
  {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return tv.tv_sec + tv.tv_usec / 1e6;
  }
}

/* System-wide context switches so far, or -1 where neither /proc/stat nor sysctl tells. */
static double bench_ctxt(void) {
  char line[512];
  double value = -1;
  FILE *f;
#if defined(__FreeBSD__) || defined(__DragonFly__)
  unsigned int swtch;
  size_t len = sizeof swtch;
  if (sysctlbyname("vm.stats.sys.v_swtch", &swtch, &len, NULL, 0) == 0) {
    return swtch;
  }
#endif
  f = fopen("/proc/stat", "r");
  if (f == NULL) {
    return -1;
  }
  while (fgets(line, sizeof line, f) != NULL) {
    if (strncmp(line, "ctxt ", 5) == 0) {
      value = atof(line + 5);
      break;
    }
  }
  fclose(f);
  return value;
}

/* User and system CPU seconds of this process and its waited-for children. */
static void bench_cpu(double *user, double *sys) {
  struct rusage self, kids;
  getrusage(RUSAGE_SELF, &self);
  getrusage(RUSAGE_CHILDREN, &kids);
  *user = self.ru_utime.tv_sec + self.ru_utime.tv_usec / 1e6
      + kids.ru_utime.tv_sec + kids.ru_utime.tv_usec / 1e6;
  *sys = self.ru_stime.tv_sec + self.ru_stime.tv_usec / 1e6
      + kids.ru_stime.tv_sec + kids.ru_stime.tv_usec / 1e6;
}

static double bench_timed(long iters) {
  double start = bench_now();
  bench_run(iters);
  return bench_now() - start;
}

/* Seconds expressed in the unit of the time figures (MB/s programs report CPU in us per op). */
static double bench_time_unit(void) {
  if (strcmp(BENCH_UNIT, "ns") == 0) return 1e9;
  if (strcmp(BENCH_UNIT, "s") == 0) return 1.0;
  return 1e6;
}

/*
 * The most iterations one run may have. `long` is 32 bits on 32-bit Cygwin (and Windows), and null-call
 * needs ~10^8 iterations per 0.5 s at scale 1: at scale 100 a `long` product overflowed, went negative
 * and calibration spun until the step timeout. So the growth is computed in double, the count is kept
 * far below LONG_MAX, and calibration stops at the cap (that sample is then shorter than asked).
 */
#ifndef BENCH_MAX_ITERS
#define BENCH_MAX_ITERS (LONG_MAX / 4)
#endif

/* The next count to try after `iters` took `elapsed` s of `target`; never above the cap, never negative. */
static long bench_next_iters(long iters, double elapsed, double target) {
  double grow = elapsed > 0 ? target / elapsed * 1.1 : 100;
  double next;
  if (grow < 1.5) grow = 1.5;
  if (grow > 100) grow = 100;
  next = (double) iters * grow + 1;
  return next >= (double) BENCH_MAX_ITERS ? (long) BENCH_MAX_ITERS : (long) next;
}

static int bench_calibrate(double scale) {
  double target = 0.5 * scale;
  long iters = 1;
  for (;;) {
    double elapsed = bench_timed(iters);
    if (elapsed >= target || iters >= (long) BENCH_MAX_ITERS) {
      break;
    }
    iters = bench_next_iters(iters, elapsed, target);
  }
  printf("perftrack-calibrated iters=%ld\n", iters);
  return 0;
}

static int bench_sample(long iters) {
  double ctxt0, ctxt1, user0, user1, sys0, sys1, elapsed, ops, value, unit;
  bench_timed(iters / 10 > 0 ? iters / 10 : 1); /* warm-up: caches, page faults, lazy binding */
  ctxt0 = bench_ctxt();
  bench_cpu(&user0, &sys0);
  elapsed = bench_timed(iters);
  bench_cpu(&user1, &sys1);
  ctxt1 = bench_ctxt();
  ops = (double) iters * BENCH_OPS_PER_ITER;
  unit = bench_time_unit();
#ifdef BENCH_BYTES_PER_OP
  value = ops * BENCH_BYTES_PER_OP / elapsed / 1e6;
#else
  value = elapsed / ops * unit;
#endif
  printf("perftrack-sample value=%.6g unit=%s iters=%ld elapsed=%.6f ctxt=%.6g user=%.6g sys=%.6g\n",
      value, BENCH_UNIT, iters, elapsed,
      ctxt0 < 0 ? -1.0 : (ctxt1 - ctxt0) / ops,
      (user1 - user0) / ops * unit, (sys1 - sys0) / ops * unit);
  return 0;
}

int main(int argc, char **argv) {
  int rc;
  bench_self = argv[0];
  (void) bench_die; /* not every program needs it */
  if (argc > 1 && strcmp(argv[1], "exit") == 0) {
    return 0; /* the trivial program that spawn execs */
  }
  if (argc < 3 || (strcmp(argv[1], "calibrate") != 0 && strcmp(argv[1], "sample") != 0
      && strcmp(argv[1], "profile") != 0)) {
    fprintf(stderr, "usage: %s calibrate SCALE [args] | sample ITERS [args] | profile ITERS [args]\n", argv[0]);
    return 2;
  }
  setvbuf(stdout, NULL, _IONBF, 0);
  bench_setup(argc - 3, argv + 3);
  if (strcmp(argv[1], "calibrate") == 0) {
    rc = bench_calibrate(atof(argv[2]));
  } else if (strcmp(argv[1], "profile") == 0) {
    bench_run(atol(argv[2]));
    printf("perftrack-profiled ops=%.0f\n", (double) atol(argv[2]) * BENCH_OPS_PER_ITER);
    rc = 0;
  } else {
    rc = bench_sample(atol(argv[2]));
  }
  bench_teardown();
  return rc;
}

#endif
