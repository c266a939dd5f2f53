package org.perftrack.agent;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;

/** Runs the CLI in-process against in-memory writers. */
public record CliRun(int exitCode, String out, String err) {

  public static CliRun run(Path home, Map<String, String> env, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = new Main(new PrintWriter(out), new PrintWriter(err), new AgentContext(env::get, home, false)).run(args);
    return new CliRun(code, out.toString(), err.toString());
  }

  public static CliRun run(Path home, String... args) {
    return run(home, Map.of(), args);
  }
}
