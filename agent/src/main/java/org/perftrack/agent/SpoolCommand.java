package org.perftrack.agent;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.perftrack.agent.config.AgentConfig;
import org.perftrack.agent.config.ConfigException;
import org.perftrack.agent.config.ConfigLoader;
import org.perftrack.agent.text.Words;
import org.perftrack.agent.upload.SpoolEntry;
import org.perftrack.agent.upload.Spools;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code spool} ({@code spool list}): what waits in the spool, server by server; {@code spool send} and
 * {@code spool drop} act on it.
 */
@Command(name = "spool", mixinStandardHelpOptions = true,
    description = {"List the runs waiting in the spool: id, server, product, version, machine, how long each waits.",
        "'spool send' sends a server's runs; 'spool drop' removes runs that should not be sent.",
        "The spool is ~/.perftrack/spool (--spool, or the config's 'spool:'): a folder per server."})
final class SpoolCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Mixin
  Where where;

  private final AgentContext context;

  SpoolCommand(AgentContext context) {
    this.context = context;
  }

  @Override
  public Integer call() throws Exception {
    return list(where.root(context), spec.commandLine().getOut());
  }

  /** Which spool: {@code --spool}, else the config's {@code spool:}, else {@code ~/.perftrack/spool}. */
  static final class Where {
    @Option(names = "--config", paramLabel = "FILE", description = "agent config file (its 'spool:' is the spool)")
    Path config;

    @Option(names = "--spool", paramLabel = "DIR", description = "the spool (default ~/.perftrack/spool)")
    Path spool;

    AgentConfig config(AgentContext context) throws ConfigException {
      return config == null ? null : new ConfigLoader(context.environment()).load(config);
    }

    Path root(AgentContext context) throws ConfigException {
      return ServerOptions.spoolRoot(spool, config(context), context);
    }
  }

  /** {@code spool list}: the same as {@code spool}. */
  @Command(name = "list", mixinStandardHelpOptions = true, description = "List the runs waiting in the spool.")
  static final class ListCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    Where where;

    private final AgentContext context;

    ListCommand(AgentContext context) {
      this.context = context;
    }

    @Override
    public Integer call() throws Exception {
      return list(where.root(context), spec.commandLine().getOut());
    }
  }

  private static int list(Path root, PrintWriter out) throws Exception {
    List<SpoolEntry> entries = new Spools(root).entries();
    if (entries.isEmpty()) {
      out.printf("no runs wait in %s%n", root);
      out.flush();
      return ExitCode.OK;
    }
    long now = System.currentTimeMillis();
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"ID", "SERVER", "PRODUCT", "VERSION", "MACHINE", "WAITING"});
    int unrecorded = 0;
    for (SpoolEntry e : entries) {
      unrecorded += e.server() == null ? 1 : 0;
      rows.add(new String[] {e.id(), e.server() == null ? "(none recorded)" : e.server(), dash(e.product()),
          dash(e.version()), dash(e.machine()), age(now - e.spooledAt())});
    }
    out.printf("waiting in %s:%n", root);
    table(rows, out);
    out.printf("%s waiting%s%n", Words.count(entries.size(), "run"), unrecorded == 0 ? ""
        : "; " + Words.count(unrecorded, "run") + " spooled with no server recorded: sent only when named, with "
            + "'perftrack-agent spool send --server URL ID'");
    out.flush();
    return ExitCode.OK;
  }

  static String dash(String value) {
    return value == null || value.isEmpty() ? "-" : value;
  }

  /** How long an entry waits, roughly: "40 s", "12 min", "5 h", "3 d". */
  static String age(long millis) {
    long seconds = Math.max(0, TimeUnit.MILLISECONDS.toSeconds(millis));
    if (seconds < 60) {
      return seconds + " s";
    }
    if (seconds < 3600) {
      return seconds / 60 + " min";
    }
    return seconds < 86400 ? seconds / 3600 + " h" : seconds / 86400 + " d";
  }

  private static void table(List<String[]> rows, PrintWriter out) {
    int[] widths = new int[rows.get(0).length];
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < row.length; i++) {
        line.append(i == 0 ? "" : "  ").append(i == row.length - 1 ? row[i]
            : String.format("%-" + widths[i] + "s", row[i]));
      }
      out.println(line);
    }
  }
}
