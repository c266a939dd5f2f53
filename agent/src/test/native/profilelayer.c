/*
 * A test double for "a version of the layer that got slower for a reason a profile can show", loaded
 * with LD_PRELOAD. PROFILELAYER lists what to change, e.g. PROFILELAYER=write-trip,fork-sleep:
 *  - write-trip: every write() first makes a round trip to a helper thread over two pipes (the caller
 *    writes a byte and reads the answer, the helper reads it and writes it back): 2 more write() and
 *    2 more read() calls and 2 more context switches per write, like seed 000's signal-thread trip;
 *  - fork-sleep: fork() sleeps 1 ms (nanosleep) first, like seed 002's slow fork;
 *  - lstat-burn: lstat() spins PROFILELAYER_BURN loops of arithmetic (default 200000) in
 *    profilelayer_burn() first: more user CPU, the same system calls.
 *
 * Build: gcc -shared -fPIC -O1 -o profilelayer.so profilelayer.c -ldl -lpthread
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

static ssize_t (*real_write)(int, const void *, size_t);
static ssize_t (*real_read)(int, void *, size_t);
static int to_helper[2], from_helper[2];
static pid_t helper_owner; /* a forked child has the pipes' copies but not the thread: it makes its own */

static int wanted(const char *what) {
  const char *list = getenv("PROFILELAYER");
  size_t n = strlen(what);
  while (list != NULL && *list) {
    if (strncmp(list, what, n) == 0 && (list[n] == ',' || list[n] == '\0')) return 1;
    list = strchr(list, ',');
    if (list != NULL) list++;
  }
  return 0;
}

static void *helper(void *unused) {
  char c;
  (void) unused;
  while (real_read(to_helper[0], &c, 1) == 1) {
    real_write(from_helper[1], &c, 1);
  }
  return NULL;
}

static void round_trip(void) {
  char c = 'x';
  pid_t self = getpid();
  if (helper_owner != self) {
    pthread_t thread;
    if (pipe(to_helper) != 0 || pipe(from_helper) != 0) return;
    if (pthread_create(&thread, NULL, helper, NULL) != 0) return;
    pthread_detach(thread);
    helper_owner = self;
  }
  real_write(to_helper[1], &c, 1);
  real_read(from_helper[0], &c, 1);
}

ssize_t write(int fd, const void *buf, size_t count) {
  if (real_write == NULL) real_write = (ssize_t (*)(int, const void *, size_t)) dlsym(RTLD_NEXT, "write");
  if (real_read == NULL) real_read = (ssize_t (*)(int, void *, size_t)) dlsym(RTLD_NEXT, "read");
  if (wanted("write-trip")) round_trip();
  return real_write(fd, buf, count);
}

pid_t fork(void) {
  static pid_t (*real)(void);
  if (real == NULL) real = (pid_t (*)(void)) dlsym(RTLD_NEXT, "fork");
  if (wanted("fork-sleep")) {
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
  return real();
}

volatile double profilelayer_sink;

__attribute__((noinline)) void profilelayer_burn(long loops) {
  double x = 0;
  long i;
  for (i = 0; i < loops; i++) x += i * 0.5;
  profilelayer_sink = x;
}

int lstat(const char *path, struct stat *st) {
  static int (*real)(const char *, struct stat *);
  if (real == NULL) real = (int (*)(const char *, struct stat *)) dlsym(RTLD_NEXT, "lstat");
  if (wanted("lstat-burn")) {
    const char *loops = getenv("PROFILELAYER_BURN");
    profilelayer_burn(loops != NULL ? atol(loops) : 200000);
  }
  return real(path, st);
}
