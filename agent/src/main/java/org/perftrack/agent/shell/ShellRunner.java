package org.perftrack.agent.shell;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Starts target processes and, on Ctrl-C or a timeout, ends them with all their children (a
 * benchmark forks; an orphaned ping-pong child would otherwise keep running).
 */
public final class ShellRunner {

  /** What a finished process said. {@code exitCode} is -1 when it timed out or was cancelled. */
  public record Result(int exitCode, String stdout, String stderr) {

    public boolean ok() {
      return exitCode == 0;
    }

    /** The first line worth showing to a person when it failed. */
    public String problem() {
      for (String text : new String[] {stderr, stdout}) {
        for (String line : text.split("\n")) {
          if (!line.isBlank()) {
            return line.strip() + (exitCode == 0 ? "" : " (exit code " + exitCode + ")");
          }
        }
      }
      return exitCode == -1 ? "timed out or cancelled" : "exit code " + exitCode;
    }
  }

  private final Set<Process> running = ConcurrentHashMap.newKeySet();
  private volatile boolean cancelled;

  public Result run(List<String> command, Map<String, String> env, Duration timeout)
      throws IOException, InterruptedException {
    if (cancelled) {
      return new Result(-1, "", "cancelled");
    }
    Path out = Files.createTempFile("perftrack-", ".out");
    Path err = Files.createTempFile("perftrack-", ".err");
    try {
      ProcessBuilder builder = new ProcessBuilder(command)
          .redirectOutput(out.toFile())
          .redirectError(err.toFile())
          .redirectInput(ProcessBuilder.Redirect.PIPE);
      builder.environment().putAll(env);
      Process process = builder.start();
      process.getOutputStream().close();
      running.add(process);
      try {
        boolean finished = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (!finished) {
          end(process);
        }
        int code = finished && !cancelled ? process.exitValue() : -1;
        return new Result(code, Files.readString(out, StandardCharsets.UTF_8),
            finished ? Files.readString(err, StandardCharsets.UTF_8) : "timed out after " + timeout.toSeconds() + " s");
      } finally {
        running.remove(process);
      }
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  /** Ends every running process tree; later calls to {@link #run} do nothing. */
  public void cancel() {
    cancelled = true;
    running.forEach(ShellRunner::end);
  }

  public boolean cancelled() {
    return cancelled;
  }

  /** Twice over the tree: a benchmark may fork a helper between the first look and the kill. */
  private static void end(Process process) {
    for (int pass = 0; pass < 2; pass++) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
    }
    process.destroyForcibly();
  }
}
