package org.perftrack.agent;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.zip.GZIPInputStream;
import org.perftrack.agent.config.AgentConfig;
import org.perftrack.agent.text.Words;
import org.perftrack.agent.upload.Importer;
import org.perftrack.wire.FormatGuess;
import org.perftrack.wire.FormatNames;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code import FILE…}: a history into the server's bulk import, in chunks, with progress. A file is NDJSON (one
 * run per line in the upload format, {@code .gz} or not: an archive of spools, another tracker's export) or, when
 * it ends in {@code .json}, one run (a spool file). Bad lines are reported by file and line and the rest kept;
 * importing a file again changes nothing, so an interrupted import is simply started again.
 */
@Command(name = "import",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:every line is on the server", "1:some lines were bad (listed), or the token was refused",
        "2:usage: unknown option or missing argument", "4:the server was unreachable; import the file again later"},
    description = {"Import a history of runs (NDJSON, one run per line; .gz accepted) into the server.",
        "Lines go in chunks; each chunk's progress is printed. Importing a file twice changes nothing."})
final class ImportCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Mixin
  ServerOptions server;

  @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
  boolean help;

  @Parameters(paramLabel = "FILE", arity = "1..*", description = "NDJSON files of runs (.gz too), or single-run .json files")
  List<Path> files = new ArrayList<>();

  @Option(names = "--format", paramLabel = "F", description = "ndjson or csv (default: csv for a .csv or .csv.gz"
      + " file, else ndjson; a CSV file goes in one request, since a run's rows may be anywhere in it)")
  String format;

  @Option(names = "--chunk", paramLabel = "N", defaultValue = "500",
      description = "runs per request (default ${DEFAULT-VALUE})")
  int chunk;

  private final AgentContext context;

  ImportCommand(AgentContext context) {
    this.context = context;
  }

  @Override
  public Integer call() throws Exception {
    AgentConfig config = server.config(context);
    String url = server.server(config, context);
    String token = server.token(config, context);
    server.require(url, token);
    if (format != null && !format.equals("csv") && !format.equals("ndjson")) {
      throw new ParameterException(spec.commandLine(), "--format: '" + format + "' is neither ndjson nor csv"
          + " (another tool's result file goes in with: upload --format F)");
    }
    if (chunk < 1) {
      throw new ParameterException(spec.commandLine(), "--chunk must be at least 1");
    }
    Importer importer = new Importer(url, token, server.retry());
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Totals totals = new Totals();
    try {
      for (Path file : files) {
        importFile(importer, file, totals, out, err);
      }
    } catch (Importer.Failure e) {
      err.println("error: " + e.getMessage());
      out.println(totals.line("stopped"));
      return e.unreachable ? ExitCode.SPOOLED : ExitCode.ERROR;
    }
    out.println(totals.line("done"));
    return totals.failed > 0 ? ExitCode.ERROR : ExitCode.OK;
  }

  private void importFile(Importer importer, Path file, Totals totals, PrintWriter out, PrintWriter err)
      throws IOException, Importer.Failure, InterruptedException, AgentException {
    List<String> lines = new ArrayList<>(chunk);
    long first = 1;
    long number = 0;
    try (BufferedReader reader = new BufferedReader(new InputStreamReader(open(file), StandardCharsets.UTF_8))) {
      if (isCsv(file)) {
        List<String> rows = new ArrayList<>();
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
          rows.add(line);
        }
        report(importer.sendCsv(rows), file, 1, rows.size(), totals, out, err);
        return;
      }
      if (isSingleRun(file)) {
        // a pretty-printed run: JSON's line breaks outside strings are only whitespace
        StringBuilder whole = new StringBuilder();
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
          whole.append(line).append(' ');
        }
        refuseAnotherToolsFile(file, whole.toString());
        lines.add(whole.toString());
        number = 1;
      } else {
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
          number++;
          lines.add(line);
          if (lines.size() == chunk) {
            send(importer, file, lines, first, totals, out, err);
            first = number + 1;
            lines = new ArrayList<>(chunk);
          }
        }
      }
    } catch (NoSuchFileException e) {
      throw new AgentException(file + ": no such file");
    }
    if (!lines.isEmpty()) {
      send(importer, file, lines, first, totals, out, err);
    }
  }

  private static void send(Importer importer, Path file, List<String> lines, long first, Totals totals,
      PrintWriter out, PrintWriter err) throws Importer.Failure, InterruptedException {
    report(importer.send(lines, first), file, first, lines.size(), totals, out, err);
  }

  private static void report(Importer.Answer answer, Path file, long first, int lines, Totals totals,
      PrintWriter out, PrintWriter err) {
    for (String error : answer.errors) {
      err.println(file + ": " + error);
    }
    totals.add(answer);
    out.println(file + ": lines " + first + "-" + (first + lines - 1) + ": " + answer.created + " new, "
        + answer.unchanged + " unchanged, " + answer.failed + " bad | " + totals.line("so far"));
    out.flush();
    err.flush();
  }

  private boolean isCsv(Path file) {
    String name = file.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
    return format == null ? name.endsWith(".csv") || name.endsWith(".csv.gz") : format.equals("csv");
  }

  /**
   * Another tool's result file is no run: said at once, with the command that sends it, rather than as a JSON
   * error of each of its lines from the server.
   */
  private static void refuseAnotherToolsFile(Path file, String content) throws AgentException {
    String seen = FormatGuess.guess(content.getBytes(StandardCharsets.UTF_8));
    if (seen != null && !seen.equals(FormatNames.PERFTRACK)) {
      throw new AgentException(file + ": this looks like a " + FormatGuess.label(seen) + " file, not a perftrack run;"
          + " import takes perftrack runs (NDJSON, .json) and CSV. Send it with: perftrack-agent upload --format "
          + seen + " --product P --version V " + file);
    }
  }

  private static boolean isSingleRun(Path file) {
    String name = file.getFileName().toString();
    return name.endsWith(".json");
  }

  private static InputStream open(Path file) throws IOException {
    InputStream in = new BufferedInputStream(Files.newInputStream(file), 64 * 1024);
    in.mark(2);
    int a = in.read();
    int b = in.read();
    in.reset();
    return a == 0x1f && b == 0x8b ? new GZIPInputStream(in, 64 * 1024) : in;
  }

  /** The running counts over every file. */
  private static final class Totals {
    long created;
    long unchanged;
    long failed;
    long regressions;

    void add(Importer.Answer a) {
      created += a.created;
      unchanged += a.unchanged;
      failed += a.failed;
      regressions += a.regressions;
    }

    String line(String when) {
      return "import " + when + ": " + Words.count(created, "run") + " new, " + unchanged + " unchanged, "
          + Words.count(failed, "bad line") + ", " + Words.count(regressions, "regression") + " opened";
    }
  }
}
