package org.perftrack.server.runs;

import java.util.UUID;
import org.perftrack.server.dashboard.PageNotFound;
import org.perftrack.server.detection.Regressions;
import org.perftrack.server.summaries.Summaries;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;

/** The run page: raw samples and environment of one upload, and the regressions and summaries it caused. */
@Controller
class RunPages {

  private final RunQueries runs;
  private final Regressions regressions;
  private final Summaries summaries;

  RunPages(RunQueries runs, Regressions regressions, Summaries summaries) {
    this.runs = runs;
    this.regressions = regressions;
    this.summaries = summaries;
  }

  @GetMapping("/runs/{id}")
  String run(@PathVariable String id, Model model) {
    UUID uuid;
    try {
      uuid = UUID.fromString(id);
    } catch (IllegalArgumentException e) {
      throw new PageNotFound("no run " + id);
    }
    model.addAttribute("run", runs.find(uuid).orElseThrow(() -> new PageNotFound("no run " + id)));
    model.addAttribute("caused", regressions.createdBy(uuid));
    model.addAttribute("summaries", summaries.changedBy(uuid).stream()
        .map(c -> summaries.find(c.id())).flatMap(java.util.Optional::stream).toList());
    return "runs/run";
  }
}
