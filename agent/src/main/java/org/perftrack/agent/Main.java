package org.perftrack.agent;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.perftrack.agent.config.ConfigException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * The command-line front end: {@code new Main(out, err).run(args)} returns the exit code, so tests run
 * it against in-memory writers; {@link #main} is the only place that exits the JVM.
 */
@Command(name = "perftrack-agent", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
    description = "Runs the perftrack benchmark suite in each installed version of a POSIX layer and uploads the results.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {Main.EXIT_0, Main.EXIT_1, Main.EXIT_2, Main.EXIT_3, Main.EXIT_4},
    footer = Main.EXIT_ORDER)
public final class Main implements Runnable {

  static final String EXIT_0 = "0:done; every run is on the server (or --dry-run)";
  static final String EXIT_1 = "1:error: bad config or file, a run rejected, the token refused, Ctrl-C";
  static final String EXIT_2 = "2:usage: unknown option or missing argument";
  static final String EXIT_3 = "3:the server found regressions (with --fail-on-regression)";
  static final String EXIT_4 = "4:the server was unreachable: the runs wait in the spool; 'upload' sends them later";
  static final String EXIT_ORDER = "%nWhen several apply: 1 before 3 before 4.";

  public static final int OK = 0;
  public static final int ERROR = 1;
  public static final int USAGE = 2;
  public static final int REGRESSION = 3;
  public static final int SPOOLED = 4;

  private final PrintWriter out;
  private final PrintWriter err;
  private final AgentContext context;

  @Spec
  private CommandSpec spec;

  public Main(PrintWriter out, PrintWriter err) {
    this(out, err, AgentContext.system());
  }

  public Main(PrintWriter out, PrintWriter err, AgentContext context) {
    this.out = out;
    this.err = err;
    this.context = context;
  }

  public static void main(String[] args) {
    PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
    PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
    System.exit(new Main(out, err).run(args));
  }

  public int run(String... args) {
    CommandLine cli = new CommandLine(this)
        .addSubcommand("run", new RunCommand(context))
        .addSubcommand("upload", new UploadCommand(context))
        .addSubcommand("import", new ImportCommand(context))
        .addSubcommand("serve", new ServeCommand(context))
        .addSubcommand("suite", new SuiteCommand())
        .setOut(out)
        .setErr(err)
        .setExecutionExceptionHandler((e, commandLine, parseResult) -> {
          commandLine.getErr().println("error: " + message(e));
          commandLine.getErr().flush();
          return ERROR;
        });
    int code = cli.execute(args);
    out.flush();
    err.flush();
    return code;
  }

  /** Without a command: the usage, as a usage error. */
  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing command: run, serve, upload, import or suite");
  }

  private static String message(Exception e) {
    if (e instanceof ConfigException || e instanceof AgentException) {
      return e.getMessage();
    }
    return e.getMessage() == null ? e.toString() : e.getClass().getSimpleName() + ": " + e.getMessage();
  }

  /** The jar's version, from the manifest when packaged. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = Main.class.getPackage().getImplementationVersion();
      return new String[] {"perftrack-agent " + (v == null ? "development" : v)};
    }
  }

  /** The directory for the agent's own files. */
  static Path home(AgentContext context) {
    return context.home().resolve(".perftrack");
  }
}
