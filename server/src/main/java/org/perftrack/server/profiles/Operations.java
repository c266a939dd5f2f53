package org.perftrack.server.profiles;

import java.util.Map;

/** What one operation of a benchmark of the suite is, as a sentence names it ("each write() in 1.5.24-2 …"). */
final class Operations {

  private static final Map<String, String> OF_SUITE = Map.ofEntries(Map.entry("null-call", "getppid()"),
      Map.entry("write-64b", "write()"), Map.entry("read-64b", "read()"), Map.entry("sigprocmask", "sigprocmask()"),
      Map.entry("signal-catch", "signal"), Map.entry("shell-builtins", "loop iteration"),
      Map.entry("shell-test", "loop iteration"), Map.entry("spawn", "spawn"), Map.entry("configure", "configure run"),
      Map.entry("fork", "fork()"), Map.entry("pipe-latency", "round trip"), Map.entry("lstat-dir", "lstat()"),
      Map.entry("readdir", "directory entry"), Map.entry("file-create", "file"), Map.entry("tcp-latency", "round trip"));

  private Operations() {}

  static String of(String benchmark) {
    if (benchmark.startsWith("pipe-bw/")) {
      return "pipe write";
    }
    String op = OF_SUITE.get(benchmark);
    return op != null ? op : "operation of " + benchmark;
  }
}
