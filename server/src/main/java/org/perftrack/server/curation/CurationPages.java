package org.perftrack.server.curation;

import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.perftrack.server.detection.Regressions;
import org.perftrack.server.pages.PageNotFound;
import org.perftrack.server.problems.Conflict;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.NotFound;
import org.perftrack.server.web.Wording;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;
import org.springframework.web.util.UriUtils;

/**
 * Curation on the pages: exclude a run and undo it (any signed-in user, from the run page), delete a run or a version
 * after a confirmation page that says what goes, and the Recently deleted list with Restore (admins, by the security
 * configuration's {@code /admin/**} rule).
 */
@Controller
class CurationPages {

  /** The reasons the exclude form offers; any other is typed in. */
  static final List<String> REASONS = List.of("machine disturbed", "wrong build installed", "test upload");

  private final Curation curation;
  private final CurationStore store;
  private final Machines machines;
  private final Regressions regressions;

  CurationPages(Curation curation, CurationStore store, Machines machines, Regressions regressions) {
    this.regressions = regressions;
    this.curation = curation;
    this.store = store;
    this.machines = machines;
  }

  @PostMapping("/runs/{id}/exclude")
  String exclude(@PathVariable String id, @RequestParam(defaultValue = "") String reason,
      @RequestParam(defaultValue = "") String other, Principal who, RedirectAttributes flash) {
    UUID run = run(id);
    try {
      String why = CurationApi.reason(reason.equals("other") || reason.isBlank() ? other : reason);
      int steps = curation.exclude(run, who.getName(), why).raised().size();
      flash.addFlashAttribute("message", "Run excluded from judgement (" + why + ")."
          + (steps > 0 ? " " + steps + " step(s) found again." : ""));
    } catch (InvalidInput e) {
      flash.addFlashAttribute("error", "Reason: " + e.fields().get(0).message() + ".");
    } catch (Conflict e) {
      flash.addFlashAttribute("error", e.getMessage());
    }
    return "redirect:/runs/" + run;
  }

  @PostMapping("/runs/{id}/include")
  String include(@PathVariable String id, Principal who, RedirectAttributes flash) {
    UUID run = run(id);
    try {
      curation.include(run, who.getName());
      flash.addFlashAttribute("message", "Run counted again.");
    } catch (Conflict e) {
      flash.addFlashAttribute("error", e.getMessage());
    }
    return "redirect:/runs/" + run;
  }

  /** What else a deletion of runs changes: their series are judged again (restoring them judges them again too). */
  static final String JUDGED_AGAIN = "its series judged again without it: a small step that was only just clear may"
      + " be withdrawn too (restoring it judges them again)";

  @GetMapping("/admin/runs/{id}/delete")
  String confirmRun(@PathVariable String id, Model model) {
    UUID runId = run(id);
    CurationStore.RunRow run = store.run(runId).filter(r -> r.deletionId() == null)
        .orElseThrow(() -> new PageNotFound("no run " + id));
    CurationStore.Impact i = store.runImpact(runId).orElseThrow(() -> new PageNotFound("no run " + id));
    return confirm(model, Curation.describe(run), List.of(
        "this run: " + samples(i) + ", from every chart, comparison and judgement",
        "the steps that stood on it only (withdrawn, saying who deleted it)", JUDGED_AGAIN),
        "/admin/runs/" + run.id() + "/delete", Map.of(), "/runs/" + run.id());
  }

  @PostMapping("/admin/runs/{id}/delete")
  String deleteRun(@PathVariable String id, Principal who, RedirectAttributes flash) {
    Curation.Change c = curation.deleteRun(run(id), who.getName());
    return deleted(flash, c);
  }

  @GetMapping("/admin/versions/delete")
  String confirmVersion(@RequestParam String product, @RequestParam String version, Model model) {
    CurationStore.Impact i = store.versionImpact(product, version)
        .orElseThrow(() -> new PageNotFound("no version " + version + " of product " + product));
    return confirm(model, "version " + version + " of " + product, List.of(
        Wording.count(i.runs(), "run") + " of this version on every machine, with their " + samples(i),
        "the version from the lists, charts and comparisons",
        steps(regressions.atVersion(product, version)) + " at or against this version, and the steps that stood on its runs (withdrawn, saying who"
            + " deleted it)", JUDGED_AGAIN),
        "/admin/versions/delete", Map.of("product", product, "version", version), "/products/" + path(product));
  }

  @PostMapping("/admin/versions/delete")
  String deleteVersion(@RequestParam String product, @RequestParam String version, Principal who,
      RedirectAttributes flash) {
    try {
      return deleted(flash, curation.deleteVersion(product, version, who.getName()));
    } catch (NotFound e) {
      flash.addFlashAttribute("error", e.getMessage());
      return "redirect:/admin/deleted";
    }
  }

  @GetMapping("/admin/products/{product}/delete")
  String confirmProduct(@PathVariable String product, Model model) {
    CurationStore.Impact i = store.productImpact(product).orElseThrow(() -> new PageNotFound("no product " + product));
    List<String> goes = new ArrayList<>(List.of(
        Wording.count(i.versions(), "version") + " and " + Wording.count(i.runs(), "run") + " on every machine, with"
            + " their " + samples(i),
        steps(regressions.onProduct(product)) + " with their history, and the product's summaries",
        "the product from the home page, lists, charts and comparisons"));
    CurationStore.BranchToll b = store.productBranches(product);
    if (b.branches() > 0) {
      goes.add(Wording.count(b.branches(), "branch") + " with " + Wording.count(b.builds(), "build")
          + ", their pages and reports");
    }
    if (i.labAgents() > 0) {
      goes.add(Wording.count(i.labAgents(), "lab agent") + " of the product, with its jobs and schedules (at the"
          + " purge)");
    }
    return confirm(model, "product " + product, goes, "/admin/products/" + path(product) + "/delete", Map.of(),
        "/products/" + path(product));
  }

  @PostMapping("/admin/products/{product}/delete")
  String deleteProduct(@PathVariable String product, Principal who, RedirectAttributes flash) {
    return deleted(flash, curation.deleteProduct(product, who.getName()));
  }

  @GetMapping("/admin/machines/{machine}/delete")
  String confirmMachine(@PathVariable String machine, Model model) {
    CurationStore.Impact i = store.machineImpact(machine).orElseThrow(() -> new PageNotFound("no machine " + machine));
    List<String> goes = new ArrayList<>(List.of(
        Wording.count(i.runs(), "run") + " of " + Wording.count(i.versions(), "version") + " measured on it, with"
            + " their " + samples(i),
        steps(regressions.onMachine(machine)) + " found on it, with their history",
        "the machine from the lists, charts and comparisons"));
    CurationStore.BranchToll b = store.machineBranches(machine);
    if (b.builds() > 0) {
      goes.add(Wording.count(b.builds(), "build") + " of " + Wording.count(b.branches(), "branch")
          + " measured on it, with their reports");
    }
    if (i.labAgents() > 0) {
      goes.add(Wording.count(i.labAgents(), "lab agent") + " on it, with its jobs and schedules (at the purge)");
    }
    return confirm(model, "machine " + machine, goes, "/admin/machines/" + path(machine) + "/delete", Map.of(),
        "/machines/" + path(machine));
  }

  @PostMapping("/admin/machines/{machine}/delete")
  String deleteMachine(@PathVariable String machine, Principal who, RedirectAttributes flash) {
    return deleted(flash, curation.deleteMachine(machine, who.getName()));
  }

  @GetMapping("/admin/lab/agents/{id}/delete")
  String confirmLabAgent(@PathVariable long id, Model model) {
    CurationStore.AgentRow a = store.labAgent(id).orElseThrow(() -> new PageNotFound("no lab agent " + id));
    return confirm(model, "the lab agent of " + a.product() + " on " + a.machine(), List.of(
        "the agent from the lab: its heartbeats and claims are refused, and a job it runs goes back to the queue",
        "its place: " + a.product() + " on " + a.machine() + " may be registered again, by any API token"),
        "/admin/lab/agents/" + id + "/delete", Map.of(), "/lab");
  }

  @PostMapping("/admin/lab/agents/{id}/delete")
  String deleteLabAgent(@PathVariable long id, Principal who, RedirectAttributes flash) {
    return deleted(flash, curation.deleteLabAgent(id, who.getName()));
  }

  /** The machines the merge form offers. */
  static final int MERGE_CHOICES = 1000;

  @GetMapping("/admin/machines/{machine}")
  String curateMachine(@PathVariable String machine, Model model) {
    CurationStore.Impact i = store.machineImpact(machine).orElseThrow(() -> new PageNotFound("no machine " + machine));
    model.addAttribute("machine", machine);
    model.addAttribute("runs", Wording.count(i.runs(), "run") + " of " + Wording.count(i.versions(), "version"));
    model.addAttribute("others", machines.others(machine, MERGE_CHOICES));
    return "curation/machine";
  }

  /**
   * A refused rename is answered with the form again, the error beside it and what was typed kept: not with a flash
   * message, which a redirect that is not followed leaves waiting for the next visit of the form.
   */
  @PostMapping("/admin/machines/{machine}/rename")
  String renameMachine(@PathVariable String machine, @RequestParam(defaultValue = "") String name, Principal who,
      RedirectAttributes flash, Model model) {
    try {
      machines.rename(machine, name.isEmpty() ? null : name, who.getName());
      flash.addFlashAttribute("message", "Machine " + machine + " renamed to " + name + ".");
      return "redirect:/machines/" + path(name);
    } catch (InvalidInput e) {
      model.addAttribute("renameError", "New name: " + e.fields().get(0).message() + ".");
    } catch (Conflict | NotFound e) {
      model.addAttribute("renameError", e.getMessage() + ".");
    }
    model.addAttribute("name", name);
    return curateMachine(machine, model);
  }

  /** As {@link #renameMachine}: a refused merge shows the form again with the error. */
  @PostMapping("/admin/machines/{machine}/merge")
  String mergeMachine(@PathVariable String machine, @RequestParam(defaultValue = "") String into, Principal who,
      RedirectAttributes flash, Model model) {
    try {
      if (into.isBlank()) {
        throw new InvalidInput("into", "name the machine to merge into");
      }
      Curation.Change c = machines.merge(machine, into, who.getName());
      flash.addFlashAttribute("message", "Machine " + machine + " merged into " + into + "."
          + (c.raised().isEmpty() ? "" : " " + Wording.count(c.raised().size(), "step") + " found again."));
      return "redirect:/machines/" + path(into);
    } catch (InvalidInput e) {
      model.addAttribute("mergeError", "Merge into: " + e.fields().get(0).message() + ".");
    } catch (Conflict | NotFound e) {
      model.addAttribute("mergeError", e.getMessage() + ".");
    }
    model.addAttribute("into", into);
    return curateMachine(machine, model);
  }

  private static String deleted(RedirectAttributes flash, Curation.Change c) {
    flash.addFlashAttribute("message", "Deleted " + c.target() + ". Restore it here until it is purged.");
    return "redirect:/admin/deleted";
  }

  @GetMapping("/admin/branches/delete")
  String confirmBranch(@RequestParam String product, @RequestParam String branch, Model model) {
    CurationStore.BranchRow b = store.branch(product, branch)
        .orElseThrow(() -> new PageNotFound("product " + product + " has no branch " + branch));
    model.addAttribute("what", "branch " + branch + " of " + product);
    model.addAttribute("goes", List.of(b.runs() + (b.runs() == 1 ? " build" : " builds")
            + " of this branch, with the results and verdicts",
        "the branch from the product page, the branch list and comparisons",
        "nothing of the default branch (its runs, regressions and charts stay as they are)"));
    model.addAttribute("action", "/admin/branches/delete");
    model.addAttribute("fields", java.util.Map.of("product", product, "branch", branch));
    model.addAttribute("back", "/products/" + org.perftrack.server.web.Links.segment(product) + "/branches/"
        + org.perftrack.server.web.Links.segments(branch));
    return confirm(model);
  }

  @PostMapping("/admin/branches/delete")
  String deleteBranch(@RequestParam String product, @RequestParam String branch, Principal who,
      RedirectAttributes flash) {
    try {
      Curation.Change c = curation.deleteBranch(product, branch, who.getName());
      flash.addFlashAttribute("message", "Deleted " + c.target() + ". Restore it here until it is purged.");
    } catch (NotFound e) {
      flash.addFlashAttribute("error", e.getMessage());
    }
    return "redirect:/admin/deleted";
  }

  /** "1,204 samples in 12 series". */
  private static String samples(CurationStore.Impact i) {
    return String.format("%,d", i.samples()) + " " + Wording.noun(i.samples(), "sample") + " in "
        + Wording.count(i.series(), "series").replace("serieses", "series");
  }

  /** "3 steps (1 open)". */
  private static String steps(Regressions.Count c) {
    return Wording.count(c.steps(), "step") + " (" + c.open() + " open)";
  }

  static String path(String name) {
    return UriUtils.encodePathSegment(name, StandardCharsets.UTF_8);
  }

  private String confirm(Model model, String what, List<String> goes, String action, Map<String, String> fields,
      String back) {
    model.addAttribute("what", what);
    model.addAttribute("goes", goes);
    model.addAttribute("action", action);
    model.addAttribute("fields", fields);
    model.addAttribute("back", back);
    return confirm(model);
  }

  /** How long a deletion is kept: "7 days", "1 day", "0.5 days". */
  static String keepFor(long seconds) {
    return seconds % 86_400 == 0 ? Wording.count(seconds / 86_400, "day")
        : org.perftrack.wire.Quantities.number(seconds / 86_400.0) + " days";
  }

  private String confirm(Model model) {
    model.addAttribute("keepFor", keepFor(curation.keepSeconds()));
    return "curation/confirm";
  }

  @GetMapping("/admin/deleted")
  String deleted(Model model) {
    model.addAttribute("deletions", curation.recentlyDeleted(200));
    model.addAttribute("keepFor", keepFor(curation.keepSeconds()));
    return "curation/deleted";
  }

  @PostMapping("/admin/deleted/{id}/restore")
  String restore(@PathVariable long id, Principal who, RedirectAttributes flash) {
    try {
      Curation.Change c = curation.restore(id, who.getName());
      flash.addFlashAttribute("message", "Restored " + c.target() + ".");
    } catch (NotFound | Conflict e) {
      flash.addFlashAttribute("error", e.getMessage());
    }
    return "redirect:/admin/deleted";
  }

  private static UUID run(String id) {
    try {
      return UUID.fromString(id);
    } catch (IllegalArgumentException e) {
      throw new PageNotFound("no run " + id);
    }
  }
}
