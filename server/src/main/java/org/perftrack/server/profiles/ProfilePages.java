package org.perftrack.server.profiles;

import java.security.Principal;
import org.perftrack.server.problems.Conflict;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * The "Why" card's button (ask for a profile) and its download links: the raw tracer output of a profile as a text
 * file, read like the page.
 */
@Controller
class ProfilePages {

  private final Profiles profiles;
  private final RegressionProfiles regressionProfiles;

  ProfilePages(Profiles profiles, RegressionProfiles regressionProfiles) {
    this.profiles = profiles;
    this.regressionProfiles = regressionProfiles;
  }

  /** The card's "Profile" button: a job for the regression's pair, or why there can be none. */
  @PostMapping("/regressions/{id}/profile")
  String request(@PathVariable long id, Principal who, RedirectAttributes flash) {
    String message;
    try {
      ProfileComparison p = regressionProfiles.request(id, who.getName());
      message = "Profile " + p.status().wire() + ": " + p.baselineVersion() + " and " + p.version() + " on "
          + p.machine() + ".";
    } catch (Conflict e) {
      message = e.getMessage();
    }
    flash.addFlashAttribute("profileMessage", message);
    return "redirect:/regressions/" + id + "#profile";
  }

  @GetMapping("/profiles/{id}/{part}.txt")
  ResponseEntity<String> download(@PathVariable long id, @PathVariable String part) {
    return ResponseEntity.ok().contentType(new MediaType("text", "plain", java.nio.charset.StandardCharsets.UTF_8))
        .header(HttpHeaders.CONTENT_DISPOSITION, "attachment; filename=\"profile-" + id + "-" + part + ".txt\"")
        .header("X-Content-Type-Options", "nosniff")
        .body(profiles.rawText(id, part));
  }
}
