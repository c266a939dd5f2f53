package org.perftrack.agent;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.perftrack.agent.text.Words;
import org.perftrack.agent.upload.Claim;
import org.perftrack.agent.upload.Spool;
import org.perftrack.agent.upload.SpoolEntry;
import org.perftrack.agent.upload.Spools;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code spool drop}: removes waiting runs that should never be sent, named or by age. */
@Command(name = "drop", mixinStandardHelpOptions = true,
    description = {"Remove waiting runs from the spool: those named (an ID, or the start of one), or those waiting "
        + "longer than --older-than DAYS.", "A run another agent process is sending at that moment is left alone."})
final class SpoolDropCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Mixin
  SpoolCommand.Where where;

  @Parameters(paramLabel = "ID", arity = "0..*", description = "runs to drop, as 'perftrack-agent spool' lists them")
  List<String> ids = new ArrayList<>();

  @Option(names = "--older-than", paramLabel = "DAYS", description = "drop every run that has waited longer than this")
  Integer olderThan;

  private final AgentContext context;

  SpoolDropCommand(AgentContext context) {
    this.context = context;
  }

  @Override
  public Integer call() throws Exception {
    if (ids.isEmpty() == (olderThan == null)) {
      throw new ParameterException(spec.commandLine(), "give the IDs of the runs to drop, or --older-than DAYS");
    }
    if (olderThan != null && olderThan < 0) {
      throw new ParameterException(spec.commandLine(), "--older-than must be 0 or more (days), not " + olderThan);
    }
    Spools spools = new Spools(where.root(context));
    List<SpoolEntry> drop = new ArrayList<>();
    if (olderThan != null) {
      long before = System.currentTimeMillis() - TimeUnit.DAYS.toMillis(olderThan);
      for (SpoolEntry e : spools.entries()) {
        if (e.spooledAt() < before) {
          drop.add(e);
        }
      }
    } else {
      drop.addAll(named(spools, ids, spec));
    }
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    int dropped = 0;
    int busy = 0;
    for (SpoolEntry e : drop) {
      try (Claim claim = new Spool(spools.root(), e.server()).claim(e.file())) {
        if (claim == null) {
          boolean sending = Files.exists(e.file());
          busy += sending ? 1 : 0;
          err.printf("%s %s: not dropped%n", e.id(), sending ? "is being sent by another agent process"
              : "was sent by another agent process meanwhile");
          continue;
        }
        claim.delete();
      }
      dropped++;
      out.printf("dropped %s (%s %s, for %s)%n", e.id(), SpoolCommand.dash(e.product()), SpoolCommand.dash(e.version()),
          e.server() == null ? "no server recorded" : e.server());
    }
    out.printf("%s dropped%n", Words.count(dropped, "run"));
    out.flush();
    err.flush();
    return busy > 0 ? ExitCode.ERROR : ExitCode.OK;
  }

  /** The waiting entries the ids name, each id exactly one of them; else a usage error naming the id. */
  static List<SpoolEntry> named(Spools spools, List<String> ids, CommandSpec spec) throws java.io.IOException {
    List<SpoolEntry> named = new ArrayList<>();
    for (String id : ids) {
      List<SpoolEntry> found = spools.find(id);
      if (found.isEmpty()) {
        throw new ParameterException(spec.commandLine(), "no run waits in " + spools.root() + " with the id '" + id
            + "': 'perftrack-agent spool' lists them");
      }
      if (found.size() > 1) {
        throw new ParameterException(spec.commandLine(), "'" + id + "' is the start of " + found.size()
            + " runs' ids: give more of it");
      }
      named.add(found.get(0));
    }
    return named;
  }
}
