package org.perftrack.agent;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.perftrack.agent.config.AgentConfig;
import org.perftrack.agent.upload.Reports;
import org.perftrack.agent.upload.ResultFiles;
import org.perftrack.agent.upload.RunFileException;
import org.perftrack.agent.upload.Spool;
import org.perftrack.formats.RunContext;
import org.perftrack.wire.FileRunId;
import org.perftrack.wire.FormatGuess;
import org.perftrack.wire.FormatNames;
import org.perftrack.wire.RunUpload;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code upload}: converts result files into runs (our runs, or another tool's files, with the server's own
 * converters), spools them and sends everything waiting in the spool for that server. Every file is converted
 * before any is spooled: one that does not convert stops the command, naming what is wrong, and nothing is sent.
 * Without files it only sends the spool.
 */
@Command(name = "upload",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {ExitCode.HELP_0, ExitCode.HELP_1, ExitCode.HELP_2, ExitCode.HELP_3, ExitCode.HELP_4},
    footer = ExitCode.HELP_ORDER,
    description = {"Upload result files, then everything waiting in the spool for the same server.",
        "Each file is converted here, whole or not at all, as the server would, then spooled and sent."})
final class UploadCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Mixin
  ServerOptions server;

  /** No standard -V/--version here: --version names the version measured. */
  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
  boolean help;

  @Parameters(paramLabel = "FILE", arity = "0..*", description = "result files, or a tool's result folder"
      + " (Criterion's target/criterion, asv's .asv/results); none: send the spool")
  List<Path> files = new ArrayList<>();

  @Option(names = "--format", paramLabel = "F",
      description = "format of the files: ${COMPLETION-CANDIDATES} (default: recognised from each file)",
      completionCandidates = FormatNameList.class)
  String format;

  @Option(names = "--product", paramLabel = "P", description = "product (required for other tools' files)")
  String product;

  @Option(names = "--version", paramLabel = "V", description = "version measured (required for other tools' files)")
  String version;

  @Option(names = "--machine", paramLabel = "M", description = "machine name (default for other tools' files: host name)")
  String machine;

  @Option(names = "--branch", paramLabel = "B", description = "the branch measured (a pull request's, say): judged "
      + "against the default branch up to --start-point, never added to it")
  String branch;

  @Option(names = "--start-point", paramLabel = "V", description = "the default branch's version the branch started "
      + "from (default: its newest version on this machine)")
  String startPoint;

  @Option(names = "--run-id", paramLabel = "UUID", description = "run id for a single file (stable ids make CI re-sends harmless)")
  String runId;

  @Option(names = "--report", paramLabel = "FILE.md", description = "write the server's report of these files' runs "
      + "as Markdown (for a pull request comment: changed metrics first; one line when nothing changed)")
  Path report;

  @Option(names = "--junit", paramLabel = "FILE.xml", description = "write the server's report of these files' runs "
      + "as JUnit XML (a test case per benchmark and metric, a failure per regression)")
  Path junit;

  /** The ids of the runs this command's files became, for their reports. */
  private final List<String> sent = new ArrayList<>();

  /** Their entries in the spool: another agent process sending them at the same time is waited for. */
  private final List<Path> own = new ArrayList<>();

  private final AgentContext context;

  UploadCommand(AgentContext context) {
    this.context = context;
  }

  @Override
  public Integer call() throws Exception {
    AgentConfig config = server.config(context);
    String url = server.server(config, context);
    String token = server.token(config, context);
    server.require(url, token);
    checkOptions();
    List<ResultFiles.Item> items = new ArrayList<>();
    for (Path file : files) {
      items.add(ResultFiles.read(file, format));
    }
    for (ResultFiles.Item item : items) {
      if (item.recognised) {
        spec.commandLine().getOut().println(item.path + ": a " + FormatGuess.label(item.format) + " "
            + (Files.isDirectory(item.path) ? "folder" : "file") + " (format " + item.format + ")");
      }
    }
    List<RunUpload> runs = convert(config, items);
    Spool spool = server.spool(config, context, url);
    List<Path> spooled = spool(spool, runs);
    PrintWriter out = spec.commandLine().getOut();
    int code = Delivery.send(Delivery.sender(spool, url, token, server.retry(), out, spec.commandLine().getErr())
        .own(own), server.failOn(), out, spooled);
    writeReports(new Reports(url, token));
    return code;
  }

  private void checkOptions() {
    if (format != null && !FormatNames.ALL.contains(format)) {
      throw new ParameterException(spec.commandLine(), "--format: unknown format '" + format + "'; known formats: "
          + String.join(", ", FormatNames.ALL));
    }
    if (startPoint != null && branch == null) {
      throw new ParameterException(spec.commandLine(), "--start-point needs --branch");
    }
    if (runId != null && !isUuid(runId)) {
      throw new ParameterException(spec.commandLine(), "--run-id must be a UUID like"
          + " 3f1c2a9e-0b7d-4c1e-9a55-2f7f1e0c9d41, got '" + runId + "'");
    }
    if (runId != null && files.size() > 1) {
      throw new ParameterException(spec.commandLine(), "--run-id names one run: give a single FILE");
    }
  }

  /** Spools the runs; the entries to send now are those that were not waiting already. */
  private List<Path> spool(Spool spool, List<RunUpload> runs) throws IOException {
    List<Path> spooled = new ArrayList<>();
    for (RunUpload run : runs) {
      boolean waiting = spool.has(run.id());
      Path entry = spool.save(run);
      sent.add(run.id());
      own.add(entry);
      if (!waiting) { // a run that waited before this upload stays: it may exist nowhere else
        spooled.add(entry);
      }
    }
    return spooled;
  }

  /**
   * The reports of this command's runs, as the server makes them; a report that cannot be fetched is said on
   * stderr and leaves the exit code alone (the upload's outcome is what the code tells).
   */
  private void writeReports(Reports reports) throws IOException {
    if (report == null && junit == null) {
      return;
    }
    List<String> markdown = new ArrayList<>();
    List<String> xml = new ArrayList<>();
    try {
      for (String id : sent) {
        markdown.add(report == null ? null : reports.fetch(id, "markdown"));
        xml.add(junit == null ? null : reports.fetch(id, "junit"));
      }
    } catch (IOException e) {
      spec.commandLine().getErr().println("no report written: " + e.getMessage());
      return;
    }
    if (report != null) {
      Files.write(report, Reports.markdown(sent, markdown).getBytes(StandardCharsets.UTF_8));
      spec.commandLine().getOut().println("report written to " + report);
    }
    if (junit != null) {
      Files.write(junit, Reports.junit(xml).getBytes(StandardCharsets.UTF_8));
      spec.commandLine().getOut().println("JUnit report written to " + junit);
    }
  }

  /**
   * Every file converted into its run before any is spooled (one bad file stops the command with its name), by the
   * server's converters: another tool's file gets the tags and the run id the server would give it ({@link FileRunId}:
   * the same file with the same tags is the same run), our own run file keeps what it says unless an option overrides it.
   */
  private List<RunUpload> convert(AgentConfig config, List<ResultFiles.Item> items) throws RunFileException {
    String productName = ServerOptions.first(product, config == null ? null : config.product());
    String machineName = ServerOptions.first(machine, config == null ? null : config.machine(), context.hostName());
    List<RunUpload> runs = new ArrayList<>();
    for (ResultFiles.Item item : items) {
      RunUpload run;
      if (item.isRun()) {
        run = item.convert(new RunContext(product, version, machine, runId));
      } else {
        requireTags(item, productName);
        String id = runId != null ? runId
            : FileRunId.of(item.format, productName, version, machineName, branch, item.content);
        run = item.convert(new RunContext(productName, version, machineName, id));
      }
      runs.add(branch == null ? run : run.onBranch(branch, startPoint));
    }
    return runs;
  }

  /** Another tool's file does not say what it measured: the options (or the config's product) must. */
  private void requireTags(ResultFiles.Item item, String productName) {
    if (productName == null || version == null) {
      String missing = productName == null && version == null ? "--product and --version"
          : productName == null ? "--product" : "--version";
      throw new ParameterException(spec.commandLine(), item.recognised
          ? item.path + " is a " + FormatGuess.label(item.format) + " file (--format " + item.format
              + "): it needs " + missing
          : "--format " + item.format + " needs " + missing);
    }
  }

  /** The known format names, for the help text. */
  static final class FormatNameList extends ArrayList<String> {
    private static final long serialVersionUID = 1L;

    FormatNameList() {
      super(FormatNames.ALL);
    }
  }

  private static boolean isUuid(String s) {
    return s.matches("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
  }
}
