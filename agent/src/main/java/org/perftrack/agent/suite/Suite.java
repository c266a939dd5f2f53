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
      "file_create.c", "tcp_latency.c");

  private static final Map<String, Benchmark> ALL = new LinkedHashMap<>();

  static {
    add("null-call", "null_call", Collections.emptyList(), "ns", "getppid() loop: the bare cost of entering the layer (control)");
    add("write-64b", "write_64b", Collections.emptyList(), "us", "64-byte write() calls to a file (seed 003)");
    add("read-64b", "read_64b", Collections.emptyList(), "us", "64-byte read() calls from a file (seed 003)");
    add("sigprocmask", "sigprocmask", Collections.emptyList(), "ns", "sigprocmask() with an unchanged mask (seed 000)");
    add("signal-catch", "signal_catch", Collections.emptyList(), "us", "kill(self) delivered to a handler");
    add("shell-builtins", "shell", Arrays.asList("builtins.sh", "us"), "us",
        "bash while [[ ]] arithmetic loop, per iteration (seed 000)");
    add("shell-test", "shell", Arrays.asList("test.sh", "us"), "us", "the same loop with [ ], per iteration (seed 000)");
    add("spawn", "spawn", Collections.emptyList(), "us", "fork + exec of a trivial program (seed 000)");
    add("configure", "shell", Arrays.asList("configure.sh", "s"), "s",
        "a configure-like script: a few hundred short processes, tests, sed/grep (seed 000)");
    add("fork", "fork", Collections.emptyList(), "us", "fork + _exit + waitpid (seed 002)");
    for (int bytes : new int[] {512, 1024, 2048, 4096, 8192, 65536, 131072}) {
      add("pipe-bw/" + bytes, "pipe_bw", Arrays.asList(Integer.toString(bytes)), "MB/s",
          "parent->child pipe bandwidth, " + bytes + "-byte writes (seed 001)");
    }
    add("pipe-latency", "pipe_latency", Collections.emptyList(), "us", "one-byte ping-pong over two pipes (seed 001)");
    add("lstat-dir", "lstat_dir", Collections.emptyList(), "us", "lstat() every entry of a directory of 2,000 files (seed 004)");
    add("readdir", "readdir", Collections.emptyList(), "us", "list a directory of 2,000 files, per entry (seed 004)");
    add("file-create", "file_create", Collections.emptyList(), "us", "create, write 1 KiB, close, unlink, per file (seed 004)");
    add("tcp-latency", "tcp_latency", Collections.emptyList(), "us", "one-byte ping-pong over 127.0.0.1, TCP_NODELAY");
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
      throw new IllegalArgumentException("unknown benchmark(s) " + unknown + "; known: "
          + String.join(", ", ALL.keySet()));
    }
    return ALL.values().stream()
        .filter(b -> names.contains(b.name()) || (names.contains("pipe-bw") && b.name().startsWith("pipe-bw/")))
        .collect(Collectors.toList());
  }
}
