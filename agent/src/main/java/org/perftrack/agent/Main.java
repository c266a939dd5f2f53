package org.perftrack.agent;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import org.perftrack.agent.config.ConfigException;
import org.perftrack.agent.upload.RunFileException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * The command-line front end: {@code new Main(out, err).run(args)} returns the exit code, so tests run
 * it against in-memory writers; {@link #main} is the only place that exits the JVM.
 */
@Command(name = "perftrack-agent", mixinStandardHelpOptions = true, versionProvider = AgentVersion.class,
    description = "Runs the perftrack benchmark suite in each installed version of a POSIX layer and uploads the results.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {ExitCode.HELP_0, ExitCode.HELP_1, ExitCode.HELP_2, ExitCode.HELP_3, ExitCode.HELP_4},
    footer = ExitCode.HELP_ORDER)
public final class Main implements Runnable {

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
        .addSubcommand("spool", new CommandLine(new SpoolCommand(context))
            .addSubcommand("list", new SpoolCommand.ListCommand(context))
            .addSubcommand("send", new SpoolSendCommand(context))
            .addSubcommand("drop", new SpoolDropCommand(context)))
        .addSubcommand("suite", new SuiteCommand())
        .setOut(out)
        .setErr(err)
        .setExecutionExceptionHandler((e, commandLine, parseResult) -> {
          commandLine.getErr().println("error: " + message(e));
          commandLine.getErr().flush();
          return ExitCode.ERROR;
        });
    int code = cli.execute(args);
    out.flush();
    err.flush();
    return code;
  }

  /** Without a command: the usage, as a usage error. */
  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing command: run, serve, upload, import, spool or suite");
  }

  private static String message(Exception e) {
    if (e instanceof ConfigException || e instanceof AgentException || e instanceof RunFileException) {
      return e.getMessage();
    }
    return e.getMessage() == null ? e.toString() : e.getClass().getSimpleName() + ": " + e.getMessage();
  }

}
