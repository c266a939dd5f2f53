/*
 * A test double for "an emulation layer that got slower", loaded with LD_PRELOAD.
 *
 * SLOWLAYER lists what to slow, e.g. SLOWLAYER=write,read,sigprocmask,fork:
 *  - write, read, sigprocmask: each call first makes a round trip to a helper thread (two thread
 *    context switches), the way Cygwin 1.5.24's sigprocmask -> sig_dispatch_pending did (seeds 000, 003);
 *    With SLOWLAYER_CALL_US=N each such call also spins N microseconds of CPU first: a floor under the
 *    slowdown that a loaded machine cannot shrink (it only stretches the spin), for end-to-end tests
 *    that must hold on a busy CI machine;
 *  - fork: sleeps SLOWLAYER_FORK_US microseconds (default 2000) first, like seed 002's slow fork.
 *
 * Build: gcc -shared -fPIC -O2 -o slowlayer.so slowlayer.c -ldl -lpthread
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t asked = PTHREAD_COND_INITIALIZER;
static pthread_cond_t answered = PTHREAD_COND_INITIALIZER;
static unsigned long requests, answers;
static pid_t helper_owner; /* the process whose helper thread runs; a forked child needs its own */
static __thread int inside; /* no round trip for calls made while making one */

/*
 * fork() copies the mutex in whatever state the helper thread left it, and not the thread: hold the
 * lock across fork so that both sides start from a known state, and give the child fresh ones.
 */
static void before_fork(void) { pthread_mutex_lock(&lock); }
static void after_fork_parent(void) { pthread_mutex_unlock(&lock); }
static void after_fork_child(void) {
  pthread_mutex_t fresh_lock = PTHREAD_MUTEX_INITIALIZER;
  pthread_cond_t fresh_cond = PTHREAD_COND_INITIALIZER;
  lock = fresh_lock;
  asked = fresh_cond;
  answered = fresh_cond;
  answers = requests;
  helper_owner = 0;
}

__attribute__((constructor)) static void install(void) {
  pthread_atfork(before_fork, after_fork_parent, after_fork_child);
}

static int slowed(const char *call) {
  const char *list = getenv("SLOWLAYER");
  size_t n = strlen(call);
  while (list != NULL && *list) {
    if (strncmp(list, call, n) == 0 && (list[n] == ',' || list[n] == '\0')) {
      return 1;
    }
    list = strchr(list, ',');
    if (list != NULL) list++;
  }
  return 0;
}

static void *helper(void *unused) {
  (void) unused;
  pthread_mutex_lock(&lock);
  for (;;) {
    while (answers == requests) {
      pthread_cond_wait(&asked, &lock);
    }
    answers = requests;
    pthread_cond_broadcast(&answered);
  }
  return NULL;
}

static void spin(void) {
  static long us = -1;
  struct timespec start, now;
  if (us < 0) {
    const char *value = getenv("SLOWLAYER_CALL_US");
    us = value != NULL ? atol(value) : 0;
  }
  if (us <= 0) return;
  clock_gettime(CLOCK_MONOTONIC, &start);
  do {
    clock_gettime(CLOCK_MONOTONIC, &now);
  } while ((now.tv_sec - start.tv_sec) * 1000000L + (now.tv_nsec - start.tv_nsec) / 1000L < us);
}

static void round_trip(void) {
  pid_t self = getpid();
  spin();
  unsigned long mine;
  inside = 1;
  pthread_mutex_lock(&lock);
  if (helper_owner != self) {
    pthread_t thread;
    /* after fork the child has the counters but not the thread */
    answers = requests;
    if (pthread_create(&thread, NULL, helper, NULL) == 0) {
      pthread_detach(thread);
      helper_owner = self;
    }
  }
  if (helper_owner == self) {
    mine = ++requests;
    pthread_cond_signal(&asked);
    while (answers < mine) {
      pthread_cond_wait(&answered, &lock);
    }
  }
  pthread_mutex_unlock(&lock);
  inside = 0;
}

ssize_t write(int fd, const void *buf, size_t count) {
  static ssize_t (*real)(int, const void *, size_t);
  if (real == NULL) real = (ssize_t (*)(int, const void *, size_t)) dlsym(RTLD_NEXT, "write");
  if (!inside && slowed("write")) round_trip();
  return real(fd, buf, count);
}

ssize_t read(int fd, void *buf, size_t count) {
  static ssize_t (*real)(int, void *, size_t);
  if (real == NULL) real = (ssize_t (*)(int, void *, size_t)) dlsym(RTLD_NEXT, "read");
  if (!inside && slowed("read")) round_trip();
  return real(fd, buf, count);
}

int sigprocmask(int how, const sigset_t *set, sigset_t *old) {
  static int (*real)(int, const sigset_t *, sigset_t *);
  if (real == NULL) real = (int (*)(int, const sigset_t *, sigset_t *)) dlsym(RTLD_NEXT, "sigprocmask");
  if (!inside && slowed("sigprocmask")) round_trip();
  return real(how, set, old);
}

pid_t fork(void) {
  static pid_t (*real)(void);
  if (real == NULL) real = (pid_t (*)(void)) dlsym(RTLD_NEXT, "fork");
  if (slowed("fork")) {
    const char *us = getenv("SLOWLAYER_FORK_US");
    long delay = us != NULL ? atol(us) : 2000;
    struct timespec ts;
    ts.tv_sec = delay / 1000000;
    ts.tv_nsec = (delay % 1000000) * 1000;
    nanosleep(&ts, NULL);
  }
  return real();
}
