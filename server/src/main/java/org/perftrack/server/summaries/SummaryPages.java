package org.perftrack.server.summaries;

import java.security.Principal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.pages.Fmt;
import org.perftrack.server.pages.PageNotFound;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.web.Wording;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/** {@code /summaries/{id}}: the members, the hints, a small chart per member, and triage (signed in). */
@Controller
class SummaryPages {

  private static final Fmt FMT = new Fmt();

  /** A member with its small chart. */
  record Member(Regression r, MemberChart.Chart chart) {}

  /** A summary that members moved to. */
  record MovedTo(long id, String version) {}

  record Page(Summary summary, List<Member> members, List<Regression.Status> statuses, List<MovedTo> movedTo) {

    /** How a status reads on the page ("won't fix"). */
    public String label(Regression.Status status) {
      return FMT.status(status);
    }

    /** "×3000", "×4.7", "×1.23": as the mail words it. */
    public String ratio(double r) {
      return Wording.ratio(r);
    }

    /** "1 regression", "3 machines". */
    public String count(long n, String noun) {
      return Wording.count(n, noun);
    }
  }

  private final Summaries summaries;
  private final MemberChart charts;

  SummaryPages(Summaries summaries, MemberChart charts) {
    this.summaries = summaries;
    this.charts = charts;
  }

  @GetMapping("/summaries/{id}")
  String summary(@PathVariable long id, Model model) {
    Summary s = summaries.find(id).orElseThrow(() -> new PageNotFound("no summary " + id));
    model.addAttribute("page", new Page(s, s.members().stream().map(r -> new Member(r, charts.of(r))).toList(),
        Summaries.STATUSES, s.movedTo().stream().flatMap(t -> summaries.find(t).stream())
            .map(t -> new MovedTo(t.id(), t.version())).toList()));
    return "summaries/summary";
  }

  @PostMapping("/summaries/{id}/triage")
  String triage(@PathVariable long id, @RequestParam String status, @RequestParam(defaultValue = "") String note,
      @RequestParam Map<String, String> form, Principal who, RedirectAttributes flash) {
    String trimmed = note.strip();
    try {
      Map<Long, Regression.Status> overrides = new LinkedHashMap<>();
      for (Map.Entry<String, String> e : form.entrySet()) {
        if (e.getKey().startsWith("member-") && !e.getValue().isBlank()) {
          long member = Long.parseLong(e.getKey().substring("member-".length()));
          overrides.put(member, Summaries.triageStatus("members." + member, e.getValue()));
        }
      }
      summaries.triage(id, Summaries.triageStatus("status", status), trimmed.isEmpty() ? null : trimmed, overrides, who.getName())
          .orElseThrow(() -> new PageNotFound("no summary " + id));
    } catch (InvalidInput | NumberFormatException e) {
      throw new ResponseStatusException(HttpStatus.BAD_REQUEST, e.getMessage());
    }
    flash.addFlashAttribute("triaged", true);
    return "redirect:/summaries/" + id + "#triage";
  }
}
