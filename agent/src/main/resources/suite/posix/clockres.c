/*
 * The clocks' resolution on this target, for the run's machine attributes: the smallest step seen of
 * gettimeofday (about 1 ms on Cygwin 1.5, 1 us on Linux), of CLOCK_MONOTONIC where it exists, and of the
 * CPU time getrusage reports (10-15.6 ms on Windows: the figures below it are quantised that coarsely).
 * Each clock is watched for at most 0.3 s; a step not seen in that time is printed as "0".
 */
#include <stdio.h>
#include <time.h>
#include <sys/time.h>
#include <sys/resource.h>

#define WATCH_SECONDS 0.3
#define STEPS 5

/* Seconds since the first call: small numbers keep a double's microseconds exact. */
static double wall(void) {
  static long base = -1;
  struct timeval tv;
  gettimeofday(&tv, NULL);
  if (base < 0) {
    base = (long) tv.tv_sec;
  }
  return (tv.tv_sec - base) + tv.tv_usec / 1e6;
}

static double cpu(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

#if defined(CLOCK_MONOTONIC)
static double monotonic(void) {
  struct timespec ts;
  if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) {
    return -1;
  }
  return ts.tv_sec + ts.tv_nsec / 1e9;
}
#endif

/* The smallest of STEPS consecutive changes of clock(), in seconds; 0 when it did not change in time. */
static double smallest_step(double (*clock)(void)) {
  double start = wall(), last = clock(), best = 0;
  int seen = 0;
  while (seen < STEPS && wall() - start < WATCH_SECONDS) {
    double now = clock();
    if (now < 0) {
      return 0;
    }
    if (now != last) {
      if (best == 0 || now - last < best) {
        best = now - last;
      }
      last = now;
      seen++;
    }
  }
  return best;
}

int main(void) {
  printf("perftrack-env machine.clock.gettimeofday-step-us=%.3g\n", smallest_step(wall) * 1e6);
#if defined(CLOCK_MONOTONIC)
  printf("perftrack-env machine.clock.monotonic-step-us=%.3g\n", smallest_step(monotonic) * 1e6);
#endif
  printf("perftrack-env machine.clock.cpu-time-step-us=%.3g\n", smallest_step(cpu) * 1e6);
  return 0;
}
