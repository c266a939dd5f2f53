package org.perftrack.server.runs;

import java.util.UUID;
import org.perftrack.server.detection.Regressions;
import org.perftrack.server.pages.DeletedNotFound;
import org.perftrack.server.pages.PageNotFound;
import org.perftrack.server.summaries.Summaries;
import org.springframework.security.core.Authentication;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;

/**
 * The run page: raw samples and environment of one upload, and the regressions and summaries it caused; for a
 * branch's build, its branch, start point and verdicts against it.
 */
@Controller
class RunPages {

  private final RunQueries runs;
  private final Regressions regressions;
  private final Summaries summaries;
  private final RunReports reports;

  private final DeletedNotFound deleted;

  RunPages(RunQueries runs, Regressions regressions, Summaries summaries, RunReports reports, DeletedNotFound deleted) {
    this.deleted = deleted;
    this.reports = reports;
    this.runs = runs;
    this.regressions = regressions;
    this.summaries = summaries;
  }

  @GetMapping("/runs/{id}")
  String run(@PathVariable String id, Model model, Authentication who) {
    UUID uuid;
    try {
      uuid = UUID.fromString(id);
    } catch (IllegalArgumentException e) {
      throw new PageNotFound("no run " + id);
    }
    RunQueries.StoredRunView run = runs.find(uuid, who).orElseThrow(() -> new PageNotFound("no run " + id));
    model.addAttribute("run", run);
    // a run of a deleted product or machine: said so, and no links to their pages (404 until restored)
    model.addAttribute("productGone", deleted.product(run.product()).orElse(null));
    model.addAttribute("machineGone", deleted.machine(run.machine().name()).orElse(null));
    // a branch's build: its verdicts against its start point, and the pages to see it beside the default branch
    model.addAttribute("verdicts", run.branch() == null ? java.util.List.of() : reports.branchRows(uuid));
    model.addAttribute("branchPage", run.branch() == null ? null
        : org.perftrack.server.web.Links.to("", "/products/" + org.perftrack.server.web.Links.segment(run.product())
            + "/branches/" + org.perftrack.server.web.Links.segments(run.branch())));
    model.addAttribute("compareUrl", run.branch() == null ? null
        : org.perftrack.server.web.Links.to("", "/compare", "product", run.product(), "base", run.startPoint(),
            "head", run.version(), "headBranch", run.branch(), "machine", run.machine().name()));
    // a session's runs are judged together: what it found is said on the page of each of its runs
    java.util.List<UUID> session = runs.session(uuid);
    model.addAttribute("sessionRuns", session.size());
    model.addAttribute("caused", regressions.createdBy(session));
    model.addAttribute("summaries", summaries.changedBy(session).stream()
        .map(c -> summaries.find(c.id())).flatMap(java.util.Optional::stream).toList());
    return "runs/run";
  }
}
