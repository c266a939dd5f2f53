package org.perftrack.server.annotations;

import java.security.Principal;
import org.perftrack.server.curation.Curation;
import org.perftrack.server.pages.Catalog;
import org.perftrack.server.problems.Conflict;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.NotFound;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.mvc.support.RedirectAttributes;

/**
 * {@code /annotations}: the notes (filtered by product and machine), the form that adds one and the buttons that
 * delete one and undo that (signed-in users, like triage); and the summary page's "caused by the infrastructure"
 * form ({@code POST /summaries/{id}/infrastructure}).
 */
@Controller
class AnnotationPages {

  static final int SHOWN = 200;

  private final Annotations annotations;
  private final Curation curation;
  private final Catalog catalog;

  AnnotationPages(Annotations annotations, Curation curation, Catalog catalog) {
    this.annotations = annotations;
    this.curation = curation;
    this.catalog = catalog;
  }

  @GetMapping("/annotations")
  String list(@RequestParam(defaultValue = "") String product, @RequestParam(defaultValue = "") String machine,
      Model model) {
    model.addAttribute("product", product);
    model.addAttribute("machine", machine);
    try {
      model.addAttribute("notes", annotations.list(product, machine, null, null, null, SHOWN));
    } catch (InvalidInput e) {
      model.addAttribute("notes", java.util.List.of());
      model.addAttribute("filterError", e.getMessage());
    }
    model.addAttribute("products", catalog.products());
    model.addAttribute("machines", catalog.machines());
    if (!model.containsAttribute("draft")) {
      model.addAttribute("draft", new Annotations.Draft("", "", product, machine, "", ""));
    }
    return "annotations/annotations";
  }

  /** A refused note is answered with the form again, what was typed kept and the problem named beside its field. */
  @PostMapping("/annotations")
  String create(@ModelAttribute Annotations.Draft draft, Principal who, RedirectAttributes flash, Model model) {
    try {
      Annotation a = annotations.create(draft, who.getName());
      flash.addFlashAttribute("message", "Note added: " + a.text() + " (" + a.when() + ", " + a.scope() + ").");
      return "redirect:/annotations#annotation-" + a.id();
    } catch (InvalidInput e) {
      model.addAttribute("draft", draft);
      model.addAttribute("formError", e.fields().get(0));
      return list("", "", model);
    }
  }

  @PostMapping("/annotations/{id}/delete")
  String delete(@PathVariable long id, Principal who, RedirectAttributes flash) {
    try {
      Curation.Change c = curation.deleteAnnotation(id, who.getName());
      flash.addFlashAttribute("message", "Deleted " + c.target() + ".");
      flash.addFlashAttribute("undo", id);
    } catch (NotFound e) {
      flash.addFlashAttribute("error", e.getMessage() + ".");
    }
    return "redirect:/annotations";
  }

  @PostMapping("/annotations/{id}/restore")
  String restore(@PathVariable long id, Principal who, RedirectAttributes flash) {
    try {
      curation.restoreAnnotation(id, who.getName());
      flash.addFlashAttribute("message", "Note restored.");
      return "redirect:/annotations#annotation-" + id;
    } catch (NotFound | Conflict e) {
      flash.addFlashAttribute("error", e.getMessage() + ".");
      return "redirect:/annotations";
    }
  }

  @PostMapping("/summaries/{id}/infrastructure")
  String explain(@PathVariable long id, @RequestParam(required = false) Long annotation, Principal who,
      RedirectAttributes flash) {
    try {
      annotations.explain(id, annotation, who.getName());
      flash.addFlashAttribute("triaged", true);
    } catch (InvalidInput e) {
      flash.addFlashAttribute("infrastructureError", e.fields().get(0).message());
    }
    return "redirect:/summaries/" + id + "#infrastructure";
  }
}
