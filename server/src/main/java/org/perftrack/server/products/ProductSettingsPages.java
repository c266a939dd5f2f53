package org.perftrack.server.products;

import jakarta.servlet.http.HttpServletResponse;
import java.security.Principal;
import org.perftrack.server.bugs.NewBug;
import org.perftrack.server.changes.ChangeLinks;
import org.perftrack.server.pages.DeletedNotFound;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.web.Links;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * A product's settings page, {@code /admin/products/{product}} (admins, by the {@code /admin/**} rule): the URL
 * templates of its links to what changed (a version's, a range's) and of its "File a bug" link. Each form stores
 * through the same checks and audit as the API; a refused one comes back with the field at fault named and what
 * was typed kept.
 */
@Controller
class ProductSettingsPages {

  private final ChangeLinks changes;
  private final NewBug newBug;
  private final ProductQueries products;
  private final DeletedNotFound deleted;

  ProductSettingsPages(ChangeLinks changes, NewBug newBug, ProductQueries products, DeletedNotFound deleted) {
    this.changes = changes;
    this.newBug = newBug;
    this.products = products;
    this.deleted = deleted;
  }

  @GetMapping("/admin/products/{product}")
  String settings(@PathVariable String product, Model model) {
    products.productId(product).orElseThrow(() -> deleted.noProduct(product, "no product " + product));
    ChangeLinks.Templates t = changes.templates(product).orElse(new ChangeLinks.Templates(null, null));
    model.addAttribute("product", product);
    if (!model.containsAttribute("versionUrl")) {
      model.addAttribute("versionUrl", t.versionUrl());
      model.addAttribute("rangeUrl", t.rangeUrl());
    }
    if (!model.containsAttribute("newBugUrl")) {
      model.addAttribute("newBugUrl", newBug.template(product).flatMap(o -> o).orElse(null));
    }
    return "products/settings";
  }

  @PostMapping("/admin/products/{product}/change-links")
  String setChangeLinks(@PathVariable String product, @RequestParam(defaultValue = "") String versionUrl,
      @RequestParam(defaultValue = "") String rangeUrl, Principal who, RedirectAttributes flash, Model model,
      HttpServletResponse response) {
    try {
      if (!changes.set(product, new ChangeLinks.Templates(versionUrl, rangeUrl), who.getName())) {
        throw deleted.noProduct(product, "no product " + product);
      }
    } catch (InvalidInput e) {
      model.addAttribute("versionUrl", versionUrl).addAttribute("rangeUrl", rangeUrl);
      return refused(product, "changesError", e, model, response);
    }
    flash.addFlashAttribute("changesSaved", versionUrl.isBlank() && rangeUrl.isBlank()
        ? "No links to changes: both templates are cleared." : "Saved.");
    return "redirect:/admin/products/" + Links.segment(product) + "#changes";
  }

  @PostMapping("/admin/products/{product}/new-bug-url")
  String setNewBugUrl(@PathVariable String product, @RequestParam(defaultValue = "") String newBugUrl,
      Principal who, RedirectAttributes flash, Model model,
      HttpServletResponse response) {
    try {
      if (!newBug.set(product, newBugUrl, who.getName())) {
        throw deleted.noProduct(product, "no product " + product);
      }
    } catch (InvalidInput e) {
      model.addAttribute("newBugUrl", newBugUrl);
      return refused(product, "newBugError", e, model, response);
    }
    flash.addFlashAttribute("newBugSaved", newBugUrl.isBlank() ? "No “File a bug” link: the template is cleared."
        : "Saved.");
    return "redirect:/admin/products/" + Links.segment(product) + "#new-bug";
  }

  /** The page again, answered 400 (nothing stored), each refused field named by its label ("Range URL: …"). */
  private String refused(String product, String attribute, InvalidInput e, Model model,
      HttpServletResponse response) {
    response.setStatus(HttpStatus.BAD_REQUEST.value());
    model.addAttribute(attribute, e.fields().stream().map(f -> LABELS.getOrDefault(f.field(), f.field()) + " ("
        + f.field() + "): " + f.message()).toList());
    model.addAttribute("refusedField", e.fields().get(0).field());
    return settings(product, model);
  }

  static final java.util.Map<String, String> LABELS = java.util.Map.of("versionUrl", "Version URL", "rangeUrl",
      "Range URL", "newBugUrl", "New bug URL");
}
