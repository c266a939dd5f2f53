/* tcp-latency: one-byte ping-pong over 127.0.0.1 with TCP_NODELAY. */
#define BENCH_UNIT "us"
#include "bench.h"
#include <sys/types.h>
#include <sys/wait.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>

static int conn = -1;
static pid_t child;

static void no_delay(int fd) {
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, (char *) &one, sizeof one);
}

static void bench_setup(int argc, char **argv) {
  struct sockaddr_in addr;
  socklen_t len = sizeof addr;
  int listener;
  char c;
  (void) argc; (void) argv;
  listener = socket(AF_INET, SOCK_STREAM, 0);
  if (listener < 0) bench_die("socket");
  memset(&addr, 0, sizeof addr);
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  if (bind(listener, (struct sockaddr *) &addr, sizeof addr) != 0) bench_die("bind");
  if (listen(listener, 1) != 0) bench_die("listen");
  if (getsockname(listener, (struct sockaddr *) &addr, &len) != 0) bench_die("getsockname");
  child = fork();
  if (child < 0) bench_die("fork");
  if (child == 0) {
    int s = socket(AF_INET, SOCK_STREAM, 0);
    close(listener);
    if (s < 0 || connect(s, (struct sockaddr *) &addr, sizeof addr) != 0) _exit(1);
    no_delay(s);
    while (read(s, &c, 1) == 1) {
      if (write(s, &c, 1) != 1) _exit(1);
    }
    _exit(0);
  }
  conn = accept(listener, NULL, NULL);
  if (conn < 0) bench_die("accept");
  close(listener);
  no_delay(conn);
}

static void bench_run(long iters) {
  long i;
  char c = 't';
  for (i = 0; i < iters; i++) {
    if (write(conn, &c, 1) != 1) bench_die("write socket");
    if (read(conn, &c, 1) != 1) bench_die("read socket");
  }
}

static void bench_teardown(void) {
  close(conn);
  waitpid(child, NULL, 0);
}
