package org.perftrack.agent.shell;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Starts target processes and, on Ctrl-C or a timeout, ends them with all their children (a
 * benchmark forks; an orphaned ping-pong child would otherwise keep running). Output is read
 * leniently with line endings normalised: see {@link OutputText}.
 */
public class ShellRunner { // not final: tests stand in for what only Windows does (a run that throws)

  /** What a finished process said. {@code exitCode} is -1 when it timed out or was cancelled. */
  public static final class Result {
    private final int exitCode;
    private final String stdout;
    private final String stderr;
    private final String charset;

    public Result(int exitCode, String stdout, String stderr) {
      this(exitCode, stdout, stderr, OutputText.UTF_8);
    }

    /** @param charset how stdout was decoded: UTF-8, or the fallback when it was not valid UTF-8 */
    public Result(int exitCode, String stdout, String stderr, String charset) {
      this.exitCode = exitCode;
      this.stdout = stdout;
      this.stderr = stderr;
      this.charset = charset;
    }

    public String charset() {
      return charset;
    }

    public int exitCode() {
      return exitCode;
    }

    public String stdout() {
      return stdout;
    }

    public String stderr() {
      return stderr;
    }

    @Override
    public boolean equals(Object other) {
      if (this == other) {
        return true;
      }
      if (!(other instanceof Result)) {
        return false;
      }
      Result o = (Result) other;
      return exitCode == o.exitCode && Objects.equals(stdout, o.stdout) && Objects.equals(stderr, o.stderr);
    }

    @Override
    public int hashCode() {
      return Objects.hash(exitCode, stdout, stderr);
    }

    @Override
    public String toString() {
      return "Result[exitCode=" + exitCode + ", stdout=" + stdout + ", stderr=" + stderr + "]";
    }

    public boolean ok() {
      return exitCode == 0;
    }

    /** The first line worth showing to a person when it failed. */
    public String problem() {
      for (String text : new String[] {stderr, stdout}) {
        for (String line : text.split("\n")) {
          if (!line.trim().isEmpty()) {
            return line.trim() + (exitCode == 0 ? "" : " (exit code " + exitCode + ")");
          }
        }
      }
      return exitCode == -1 ? "timed out or cancelled" : "exit code " + exitCode;
    }
  }

  /** Deletes a file; a test stands in for Windows, where a child still holding it makes the delete fail. */
  public interface Deleter {
    void delete(Path file) throws IOException;
  }

  /** How a process tree is ended: Java 9 and later list a process's children; Java 8 needs the target's help. */
  public enum TreeEnding {
    /** {@code Process.descendants()}, then the process. */
    DESCENDANTS,
    /** The script runs as its own process group, ended by the target's {@code kill} (see {@link ProcessGroups}). */
    PROCESS_GROUP;

    public static TreeEnding forThisRuntime() {
      return ProcessTrees.seesChildren() ? DESCENDANTS : PROCESS_GROUP;
    }
  }

  private final Map<Process, Runnable> running = new ConcurrentHashMap<>();
  private final Deleter deleter;
  private final Charset fallback;
  private final TreeEnding ending;
  private volatile boolean cancelled;

  public ShellRunner() {
    this(Files::deleteIfExists, OutputText.hostCharset());
  }

  /**
   * @param deleter removes the output files afterwards; a failure only leaves a temporary file behind
   * @param fallback how to read output that is not UTF-8 (Cygwin 1.5 writes the ANSI code page)
   */
  public ShellRunner(Deleter deleter, Charset fallback) {
    this(deleter, fallback, TreeEnding.forThisRuntime());
  }

  public ShellRunner(Deleter deleter, Charset fallback, TreeEnding ending) {
    this.deleter = deleter;
    this.fallback = fallback;
    this.ending = ending;
  }

  /**
   * Runs {@code command}: a shell prefix with the script as its last word, as {@link TargetShell#command} makes
   * it. On a timeout or {@link #cancel} the script ends with every process it started.
   */
  public Result run(List<String> command, Map<String, String> env, Duration timeout)
      throws IOException, InterruptedException {
    if (cancelled) {
      return new Result(-1, "", "cancelled");
    }
    ProcessGroups group = ending == TreeEnding.PROCESS_GROUP ? ProcessGroups.of(command, env) : null;
    Path out = Files.createTempFile("perftrack-", ".out");
    Path err = Files.createTempFile("perftrack-", ".err");
    try {
      ProcessBuilder builder = new ProcessBuilder(group == null ? command : group.command())
          .redirectOutput(out.toFile())
          .redirectError(err.toFile())
          .redirectInput(ProcessBuilder.Redirect.PIPE);
      builder.environment().putAll(env);
      Process process = builder.start();
      process.getOutputStream().close();
      Runnable end = group == null ? () -> ProcessTrees.end(process) : () -> group.end(process);
      running.put(process, end);
      try {
        boolean finished = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (!finished) {
          end.run();
        }
        int code = finished && !cancelled ? process.exitValue() : -1;
        OutputText stdout = OutputText.decode(Files.readAllBytes(out), fallback);
        String stderr = finished ? OutputText.decode(Files.readAllBytes(err), fallback).text()
            : "timed out after " + timeout.getSeconds() + " s";
        return new Result(code, stdout.text(), stderr, stdout.charset());
      } finally {
        running.remove(process);
      }
    } finally {
      delete(out);
      delete(err);
      if (group != null) {
        group.close();
      }
    }
  }

  /**
   * On Windows a killed benchmark's child may still hold the file (no FILE_SHARE_DELETE): the delete
   * fails, and that must not cost the session its results. The file goes when the agent exits.
   */
  private void delete(Path file) {
    try {
      deleter.delete(file);
    } catch (IOException | RuntimeException e) {
      file.toFile().deleteOnExit();
    }
  }

  /** Ends every running process tree; later calls to {@link #run} do nothing. */
  public void cancel() {
    cancelled = true;
    running.values().forEach(Runnable::run);
  }

  public boolean cancelled() {
    return cancelled;
  }
}
