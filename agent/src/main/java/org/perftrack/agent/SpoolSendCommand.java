package org.perftrack.agent;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import org.perftrack.agent.config.AgentConfig;
import org.perftrack.agent.upload.ServerUrl;
import org.perftrack.agent.upload.Spool;
import org.perftrack.agent.upload.SpoolEntry;
import org.perftrack.agent.upload.Spools;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code spool send}: sends the runs waiting for the server (as {@code upload} without files does), or only the
 * runs named; a run spooled with no server recorded goes only when it is named, and a run recorded for another
 * server never goes to this one.
 */
@Command(name = "send", mixinStandardHelpOptions = true,
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {ExitCode.HELP_0, ExitCode.HELP_1, ExitCode.HELP_2, ExitCode.HELP_3, ExitCode.HELP_4},
    footer = ExitCode.HELP_ORDER,
    description = {"Send the runs waiting in the spool for the server (--server, the config's, or PERFTRACK_SERVER).",
        "With IDs (or the start of one): those runs only; a run spooled with no server recorded is sent only so."})
final class SpoolSendCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Mixin
  ServerOptions server;

  @Parameters(paramLabel = "ID", arity = "0..*", description = "runs to send, as 'perftrack-agent spool' lists them")
  List<String> ids = new ArrayList<>();

  private final AgentContext context;

  SpoolSendCommand(AgentContext context) {
    this.context = context;
  }

  @Override
  public Integer call() throws Exception {
    AgentConfig config = server.config(context);
    String url = server.server(config, context);
    String token = server.token(config, context);
    server.require(url, token);
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Spool spool = server.spool(config, context, url);
    if (ids.isEmpty()) {
      return Delivery.send(Delivery.sender(spool, url, token, server.retry(), out, err), server.failOn(), out,
          Collections.<Path>emptyList());
    }
    List<Path> ofServer = new ArrayList<>();
    List<Path> unrecorded = new ArrayList<>();
    for (SpoolEntry e : SpoolDropCommand.named(new Spools(spool.root()), ids, spec)) {
      if (e.server() == null) {
        unrecorded.add(e.file());
      } else if (e.server().equals(ServerUrl.normalised(url))) {
        ofServer.add(e.file());
      } else {
        throw new ParameterException(spec.commandLine(), e.id() + " waits for " + e.server() + ", not for "
            + ServerUrl.normalised(url) + ": send it with --server " + e.server());
      }
    }
    int code = ExitCode.OK;
    if (!ofServer.isEmpty()) {
      code = Delivery.send(Delivery.sender(spool, url, token, server.retry(), out, err).only(ofServer).own(ofServer),
          server.failOn(), out, Collections.<Path>emptyList());
    }
    if (!unrecorded.isEmpty()) {
      Spool old = new Spool(spool.root(), null, spool.keepSentDays());
      code = worse(code, Delivery.send(Delivery.sender(old, url, token, server.retry(), out, err).only(unrecorded)
          .own(unrecorded), server.failOn(), out, Collections.<Path>emptyList()));
    }
    return code;
  }

  /** Of two exit codes, the one {@code --help} puts first: 1 before 3 before 4. */
  static int worse(int a, int b) {
    for (int code : new int[] {ExitCode.ERROR, ExitCode.REGRESSION, ExitCode.SPOOLED}) {
      if (a == code || b == code) {
        return code;
      }
    }
    return ExitCode.OK;
  }
}
