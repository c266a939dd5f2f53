package org.perftrack.agent;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.perftrack.agent.config.AgentConfig;
import org.perftrack.agent.config.ConfigLoader;
import org.perftrack.agent.upload.Spool;
import org.perftrack.formats.FormatException;
import org.perftrack.formats.Formats;
import org.perftrack.formats.ResultFormat;
import org.perftrack.formats.RunContext;
import org.perftrack.formats.RunUpload;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code upload}: converts result files (ours, or another tool's with {@code --format}) into runs,
 * spools them, and sends everything waiting in the spool. Without files it only sends the spool.
 */
@Command(name = "upload",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {Main.EXIT_0, Main.EXIT_1, Main.EXIT_2, Main.EXIT_3, Main.EXIT_4},
    footer = Main.EXIT_ORDER,
    description = {"Upload result files, then everything waiting in the spool.",
        "A file is converted whole or not at all; converted runs are spooled before they are sent."})
final class UploadCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Mixin
  ServerOptions server;

  /** No standard -V/--version here: --version names the version measured. */
  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
  boolean help;

  @Parameters(paramLabel = "FILE", arity = "0..*", description = "result files; none: send the spool")
  List<Path> files = new ArrayList<>();

  @Option(names = "--format", paramLabel = "F", defaultValue = "perftrack",
      description = "format of the files: ${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE})",
      completionCandidates = FormatNames.class)
  String format;

  @Option(names = "--product", paramLabel = "P", description = "product (required for other tools' files)")
  String product;

  @Option(names = "--version", paramLabel = "V", description = "version measured (required for other tools' files)")
  String version;

  @Option(names = "--machine", paramLabel = "M", description = "machine name (default for other tools' files: host name)")
  String machine;

  @Option(names = "--run-id", paramLabel = "UUID", description = "run id for a single file (stable ids make CI re-sends harmless)")
  String runId;

  private final AgentContext context;

  UploadCommand(AgentContext context) {
    this.context = context;
  }

  @Override
  public Integer call() throws Exception {
    AgentConfig config = server.config == null ? null : new ConfigLoader(context.environment()).load(server.config);
    String url = server.server(config, context);
    String token = server.token(config, context);
    if (url == null || token == null) {
      throw new ParameterException(spec.commandLine(), "Missing " + (url == null ? "--server" : "--token")
          + " (or the config file's 'server:'/'token:', or PERFTRACK_SERVER/PERFTRACK_TOKEN)");
    }
    Spool spool = new Spool(server.spool(config, context));
    for (RunUpload run : convertAll(config)) {
      spool.save(run);
    }
    return Delivery.sendSpool(spool, url, token, server.retry(), server.failOnRegression, spec.commandLine().getOut());
  }

  /** Every file converted before any is spooled: one bad file stops the command with its name. */
  private List<RunUpload> convertAll(AgentConfig config) throws AgentException, IOException {
    ResultFormat converter;
    try {
      converter = Formats.byName(format);
    } catch (FormatException e) {
      throw new ParameterException(spec.commandLine(), "--format: " + e.getMessage());
    }
    boolean ours = "perftrack".equals(format);
    String productName = ServerOptions.first(product, ours || config == null ? null : config.product());
    if (!ours && (productName == null || version == null) && !files.isEmpty()) {
      throw new ParameterException(spec.commandLine(), "--format " + format + " needs --product and --version");
    }
    if (runId != null && files.size() > 1) {
      throw new ParameterException(spec.commandLine(), "--run-id names one run: give a single FILE");
    }
    String machineName = ServerOptions.first(machine, ours ? null : config == null ? null : config.machine(),
        ours ? null : context.hostName());
    List<RunUpload> runs = new ArrayList<>();
    for (Path file : files) {
      try {
        runs.add(converter.convert(Files.readAllBytes(file), file.toString(),
            new RunContext(productName, version, machineName, runId)));
      } catch (NoSuchFileException e) {
        throw new AgentException(file + ": no such file");
      } catch (FormatException e) {
        throw new AgentException(e.getMessage());
      }
    }
    return runs;
  }

  /** The registered format names, for the help text. */
  static final class FormatNames extends ArrayList<String> {
    private static final long serialVersionUID = 1L;

    FormatNames() {
      super(Formats.names());
    }
  }
}
