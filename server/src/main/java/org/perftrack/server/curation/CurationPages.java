package org.perftrack.server.curation;

import java.security.Principal;
import java.util.List;
import java.util.UUID;
import org.perftrack.server.dashboard.PageNotFound;
import org.perftrack.server.problems.Conflict;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.NotFound;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

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

  CurationPages(Curation curation, CurationStore store) {
    this.curation = curation;
    this.store = store;
  }

  @PostMapping("/runs/{id}/exclude")
  String exclude(@PathVariable String id, @RequestParam(defaultValue = "") String reason,
      @RequestParam(defaultValue = "") String other, Principal who, RedirectAttributes flash) {
    UUID run = run(id);
    try {
      String why = CurationApiController.reason(reason.equals("other") || reason.isBlank() ? other : reason);
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

  @GetMapping("/admin/runs/{id}/delete")
  String confirmRun(@PathVariable String id, Model model) {
    CurationStore.RunRow run = store.run(run(id)).filter(r -> r.deletionId() == null)
        .orElseThrow(() -> new PageNotFound("no run " + id));
    model.addAttribute("what", Curation.describe(run));
    model.addAttribute("goes", List.of("this run and its results, from every chart, comparison and judgement",
        "the steps that stood on it only (withdrawn, saying who deleted it)"));
    model.addAttribute("action", "/admin/runs/" + run.id() + "/delete");
    model.addAttribute("back", "/runs/" + run.id());
    model.addAttribute("fields", java.util.Map.of());
    return confirm(model);
  }

  @PostMapping("/admin/runs/{id}/delete")
  String deleteRun(@PathVariable String id, Principal who, RedirectAttributes flash) {
    Curation.Change c = curation.deleteRun(run(id), who.getName());
    flash.addFlashAttribute("message", "Deleted " + c.target() + ". Restore it here until it is purged.");
    return "redirect:/admin/deleted";
  }

  @GetMapping("/admin/versions/delete")
  String confirmVersion(@RequestParam String product, @RequestParam String version, Model model) {
    int runs = store.countRunsOfVersion(product, version)
        .orElseThrow(() -> new PageNotFound("no version " + version + " of product " + product));
    model.addAttribute("what", "version " + version + " of " + product);
    model.addAttribute("goes", List.of(runs + " runs of this version on every machine, with their results",
        "the version from the lists, charts and comparisons",
        "its steps and the steps that stood on it (withdrawn, saying who deleted it)"));
    model.addAttribute("action", "/admin/versions/delete");
    model.addAttribute("fields", java.util.Map.of("product", product, "version", version));
    model.addAttribute("back", "/products/" + java.net.URLEncoder.encode(product, java.nio.charset.StandardCharsets.UTF_8));
    return confirm(model);
  }

  @PostMapping("/admin/versions/delete")
  String deleteVersion(@RequestParam String product, @RequestParam String version, Principal who,
      RedirectAttributes flash) {
    try {
      curation.deleteVersion(product, version, who.getName());
      flash.addFlashAttribute("message", "Deleted version " + version + " of " + product
          + ". Restore it here until it is purged.");
    } catch (NotFound e) {
      flash.addFlashAttribute("error", e.getMessage());
    }
    return "redirect:/admin/deleted";
  }

  @GetMapping("/admin/branches/delete")
  String confirmBranch(@RequestParam String product, @RequestParam String branch, Model model) {
    CurationStore.BranchRow b = store.branch(product, branch)
        .orElseThrow(() -> new PageNotFound("product " + product + " has no branch " + branch));
    model.addAttribute("what", "branch " + branch + " of " + product);
    model.addAttribute("goes", List.of(b.runs() + (b.runs() == 1 ? " build" : " builds")
            + " of this branch, with their results and verdicts against their start points",
        "the branch from the product page, the branch list and comparisons",
        "nothing of the default branch: its runs, regressions and charts stay as they are"));
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

  private String confirm(Model model) {
    model.addAttribute("keepDays", curation.keepSeconds() / 86_400.0);
    return "curation/confirm";
  }

  @GetMapping("/admin/deleted")
  String deleted(Model model) {
    model.addAttribute("deletions", curation.recentlyDeleted(200));
    model.addAttribute("keepDays", curation.keepSeconds() / 86_400.0);
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
