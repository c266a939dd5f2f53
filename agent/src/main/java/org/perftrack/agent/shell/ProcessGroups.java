package org.perftrack.agent.shell;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Ends a benchmark with its children where Java cannot see them (Java 8 has no {@code Process.descendants()},
 * and the benchmark is a Cygwin child of the {@code bash.exe} the agent started): the script runs as a job of
 * its own process group, which the target's own {@code kill} ends as a whole.
 *
 * <p>A command is a shell prefix with the script as its last word (see {@link TargetShell#command}). The
 * script becomes {@code set -m; ( script ) & echo $! > pidfile; wait $!}: with job control on, the job leads
 * a new process group and the shell's exit code is the job's. To end it, {@code kill -9 -PGID} runs through
 * the same shell prefix, then the shell itself is ended. A shell without job control (dash without a terminal)
 * leaves the job in the agent's group: then the job's id names no group, the kill finds nothing, and only the
 * job and its shell are ended.
 */
final class ProcessGroups {

  private static final long KILL_SECONDS = 30;

  private final List<String> prefix;
  private final Map<String, String> env;
  private final String script;
  private final Path pidFile;

  private ProcessGroups(List<String> prefix, String script, Map<String, String> env, Path pidFile) {
    this.prefix = prefix;
    this.script = script;
    this.env = env;
    this.pidFile = pidFile;
  }

  /** Prepares {@code command} to run as its own group; {@link #command()} is what to start. */
  static ProcessGroups of(List<String> command, Map<String, String> env) throws IOException {
    if (command.size() < 2) {
      throw new IllegalArgumentException("expected a shell prefix and a script: " + command);
    }
    return new ProcessGroups(new ArrayList<>(command.subList(0, command.size() - 1)), command.get(command.size() - 1),
        env, Files.createTempFile("perftrack-", ".pgid"));
  }

  List<String> command() {
    List<String> wrapped = new ArrayList<>(prefix);
    wrapped.add("set -m; ( " + script + " ) & echo $! > " + TargetShell.quote(shellPath(pidFile)) + "; wait $!");
    return wrapped;
  }

  /** Ends the job's group through the target's {@code kill}, then the shell the agent started. */
  void end(Process shell) {
    String pgid = groupId();
    if (pgid != null) {
      List<String> kill = new ArrayList<>(prefix);
      kill.add("kill -9 -" + pgid + " 2>/dev/null; kill -9 " + pgid + " 2>/dev/null; true");
      run(kill);
    }
    shell.destroyForcibly();
  }

  void close() {
    try {
      Files.deleteIfExists(pidFile);
    } catch (IOException e) {
      pidFile.toFile().deleteOnExit();
    }
  }

  private String groupId() {
    try {
      String text = new String(Files.readAllBytes(pidFile), StandardCharsets.US_ASCII).trim();
      return text.matches("[1-9][0-9]{0,9}") ? text : null;
    } catch (IOException e) {
      return null;
    }
  }

  private void run(List<String> kill) {
    try {
      ProcessBuilder builder = new ProcessBuilder(kill).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(nullFile()));
      builder.environment().putAll(env);
      Process p = builder.start();
      p.getOutputStream().close();
      if (!p.waitFor(KILL_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    } catch (IOException e) {
      // the shell could not be started again: the agent still ends the one it started
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Cygwin reads {@code C:/dir} of any version, backslashes it would eat. */
  private static String shellPath(Path file) {
    return File.separatorChar == '\\' ? file.toString().replace('\\', '/') : file.toString();
  }

  private static File nullFile() {
    return new File(File.separatorChar == '\\' ? "NUL" : "/dev/null");
  }
}
