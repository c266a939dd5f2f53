package org.perftrack.server.bugs;

import java.security.Principal;
import org.perftrack.server.detection.Regressions;
import org.perftrack.server.pages.PageNotFound;
import org.perftrack.server.summaries.Summaries;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * The Bugs card's forms on the regression and summary pages ({@code templates/bugs/links.html}): link a bug
 * ({@code url}) or remove one ({@code remove}), for a signed-in user; back to the card.
 */
@Controller
class BugPages {

  private final Bugs bugs;
  private final Regressions regressions;
  private final Summaries summaries;

  BugPages(Bugs bugs, Regressions regressions, Summaries summaries) {
    this.bugs = bugs;
    this.regressions = regressions;
    this.summaries = summaries;
  }

  @PostMapping("/regressions/{id}/bugs")
  String regression(@PathVariable long id, @RequestParam(required = false) String url,
      @RequestParam(required = false) String remove, Principal who, RedirectAttributes flash) {
    regressions.find(id).orElseThrow(() -> new PageNotFound("no regression " + id));
    change(Bugs.About.REGRESSION, id, url, remove, who, flash);
    return "redirect:/regressions/" + id + "#bugs";
  }

  @PostMapping("/summaries/{id}/bugs")
  String summary(@PathVariable long id, @RequestParam(required = false) String url,
      @RequestParam(required = false) String remove, Principal who, RedirectAttributes flash) {
    summaries.find(id).orElseThrow(() -> new PageNotFound("no summary " + id));
    change(Bugs.About.SUMMARY, id, url, remove, who, flash);
    return "redirect:/summaries/" + id + "#bugs";
  }

  private void change(Bugs.About about, long id, String url, String remove, Principal who, RedirectAttributes flash) {
    if (remove != null) {
      bugs.remove(about, id, remove, who.getName());
    } else {
      bugs.add(about, id, Bugs.checkUrl("url", url, Bugs.MAX_URL), who.getName());
    }
    flash.addFlashAttribute("bugsSaved", true);
  }
}
