package org.perftrack.server.bugs;

import jakarta.servlet.http.HttpServletRequest;
import java.security.Principal;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * The Bugs card's form on the regression and summary pages ({@code templates/bugs/links.html}): link a bug
 * ({@code url}) or remove one ({@code remove}), for a signed-in user; back to the card.
 */
@Controller
class BugPages {

  private final Bugs bugs;
  private final BugTargets targets;

  BugPages(Bugs bugs, BugTargets targets) {
    this.bugs = bugs;
    this.targets = targets;
  }

  @PostMapping({"/regressions/{id}/bugs", "/summaries/{id}/bugs"})
  String change(@PathVariable long id, @RequestParam(required = false) String url,
      @RequestParam(required = false) String remove, Principal who, RedirectAttributes flash,
      HttpServletRequest request) {
    Bugs.About about = BugTargets.about(request);
    targets.existing(about, id);
    if (remove != null) {
      bugs.remove(about, id, remove, who.getName());
    } else {
      bugs.add(about, id, Bugs.checkUrl("url", url, Bugs.MAX_URL), who.getName());
    }
    flash.addFlashAttribute("bugsSaved", true);
    return "redirect:/" + (about == Bugs.About.SUMMARY ? "summaries" : "regressions") + "/" + id + "#bugs";
  }
}
