package org.perftrack.server.runs;

import java.util.UUID;
import org.perftrack.server.dashboard.PageNotFound;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;

/** The run page: raw samples and environment of one upload. */
@Controller
class RunPages {

  private final RunQueries runs;

  RunPages(RunQueries runs) {
    this.runs = runs;
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
    return "runs/run";
  }
}
