package org.perftrack.agent.suite;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The default suite {@code posix}; the names are fixed by DESIGN.md. */
public final class Suite {

  public static final String NAME = "posix";

  /** Where the sources live in the agent jar. */
  public static final String RESOURCE_DIR = "suite/posix/";

  /** Every file of the suite, extracted into each target's work directory. */
  public static final List<String> FILES = Arrays.asList(
      "bench.h", "files.h", "build.sh", "probe.sh", "builtins.sh", "test.sh", "configure.sh",
      "null_call.c", "write_64b.c", "read_64b.c", "sigprocmask.c", "signal_catch.c", "shell.c",
      "spawn.c", "fork.c", "pipe_bw.c", "pipe_latency.c", "lstat_dir.c", "readdir.c",
      "file_create.c", "tcp_latency.c", "clockres.c", "rusage.c");

  private static final List<String> NO_ARGS = Collections.emptyList();

  private static final Map<String, Benchmark> ALL = new LinkedHashMap<>();

  // the reports of users that each benchmark answers, as the suite command shows them
  private static final String WRITE_2006 = " (2006 report: 64-byte write() 18 s -> 48 s in Cygwin 1.5.24)";
  private static final String READ_2006 =
      " (2006 report: read() and write() slowed by sig_dispatch_pending in Cygwin 1.5.24)";
  private static final String SHELL_2007 = " (2007 report: shell loops twice as slow, sig_dispatch_pending)";
  private static final String FORK_REPORT = " (slow-fork report: CreateProcess is half of a fork)";
  private static final String PIPE_2001 = " (2001 report: small pipe writes slowed by microtime)";
  private static final String LSTAT_2010 = " (2010 report: lstat() per file slower in Cygwin 1.7.7)";

  static {
    add("null-call", "null_call", NO_ARGS, "ns", "getppid() loop: the bare cost of entering the layer (control)");
    add("write-64b", "write_64b", NO_ARGS, "us",
        "64-byte write() calls to a file" + WRITE_2006);
    add("read-64b", "read_64b", NO_ARGS, "us",
        "64-byte read() calls from a file" + READ_2006);
    add("sigprocmask", "sigprocmask", NO_ARGS, "ns",
        "sigprocmask() with an unchanged mask" + SHELL_2007);
    add("signal-catch", "signal_catch", NO_ARGS, "us", "kill(self) delivered to a handler");
    add("shell-builtins", "shell", Arrays.asList("builtins.sh", "us"), "us",
        "bash while [[ ]] arithmetic loop, per iteration" + SHELL_2007);
    add("shell-test", "shell", Arrays.asList("test.sh", "us"), "us",
        "the same loop with [ ], per iteration" + SHELL_2007);
    add("spawn", "spawn", NO_ARGS, "us",
        "fork + exec of a trivial program" + SHELL_2007);
    add("configure", "shell", Arrays.asList("configure.sh", "s"), "s",
        "a configure-like script: a few hundred short processes, tests, sed/grep" + SHELL_2007);
    add("fork", "fork", NO_ARGS, "us", "fork + _exit + waitpid" + FORK_REPORT);
    for (int bytes : new int[] {512, 1024, 2048, 4096, 8192, 65536, 131072}) {
      add("pipe-bw/" + bytes, "pipe_bw", Arrays.asList(Integer.toString(bytes)), "MB/s",
          "parent->child pipe bandwidth, " + bytes + "-byte writes" + PIPE_2001);
    }
    add("pipe-latency", "pipe_latency", NO_ARGS, "us",
        "one-byte ping-pong over two pipes" + PIPE_2001);
    add("lstat-dir", "lstat_dir", NO_ARGS, "us",
        "lstat() every entry of a directory of 2,000 files" + LSTAT_2010);
    add("readdir", "readdir", NO_ARGS, "us",
        "list a directory of 2,000 files, per entry" + LSTAT_2010);
    add("file-create", "file_create", NO_ARGS, "us",
        "create, write 1 KiB, close, unlink, per file" + LSTAT_2010);
    add("tcp-latency", "tcp_latency", NO_ARGS, "us", "one-byte ping-pong over 127.0.0.1, TCP_NODELAY");
  }

  private Suite() {}

  private static void add(String name, String program, List<String> args, String unit, String description) {
    ALL.put(name, new Benchmark(name, program, args, unit, description));
  }

  public static List<Benchmark> all() {
    return Collections.unmodifiableList(new ArrayList<>(ALL.values()));
  }

  /**
   * The benchmarks of those names, in suite order; null or empty means all. {@code pipe-bw} selects
   * every buffer size.
   *
   * @throws IllegalArgumentException naming the unknown names and the known ones
   */
  public static List<Benchmark> select(List<String> names) {
    if (names == null || names.isEmpty()) {
      return all();
    }
    List<String> unknown = new ArrayList<>();
    for (String name : names) {
      if (!ALL.containsKey(name) && !"pipe-bw".equals(name)) {
        unknown.add(name);
      }
    }
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException((unknown.size() == 1 ? "unknown benchmark " : "unknown benchmarks ")
          + String.join(", ", unknown) + "; known: " + String.join(", ", ALL.keySet()) + ", pipe-bw (every size)");
    }
    return ALL.values().stream()
        .filter(b -> names.contains(b.name()) || (names.contains("pipe-bw") && b.name().startsWith("pipe-bw/")))
        .collect(Collectors.toList());
  }
}
