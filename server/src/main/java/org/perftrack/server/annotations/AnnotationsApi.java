package org.perftrack.server.annotations;

import java.util.List;
import org.perftrack.server.curation.Curation;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.NotFound;
import org.perftrack.server.summaries.Summary;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/v1/annotations?product=&machine=&kind=&from=&to=&limit=} (newest first),
 * {@code GET /api/v1/annotations/{id}}, {@code POST /api/v1/annotations} (triage), {@code DELETE
 * /api/v1/annotations/{id}} and its undo {@code POST /api/v1/annotations/{id}:restore} (triage; curation's deletion,
 * listed under Recently deleted too), and {@code POST /api/v1/summaries/{id}:infrastructure {"annotation": id}}:
 * the summary triaged as caused by the event of that note.
 */
@RestController
class AnnotationsApi {

  record ExplainRequest(Long annotation) {}

  private final Annotations annotations;
  private final Curation curation;

  AnnotationsApi(Annotations annotations, Curation curation) {
    this.annotations = annotations;
    this.curation = curation;
  }

  @GetMapping("/api/v1/annotations")
  List<Annotation> list(@RequestParam(required = false) String product, @RequestParam(required = false) String machine,
      @RequestParam(required = false) String kind, @RequestParam(required = false) String from,
      @RequestParam(required = false) String to, @RequestParam(defaultValue = "200") int limit) {
    return annotations.list(product, machine, kind, from, to, limit);
  }

  @GetMapping("/api/v1/annotations/{id}")
  Annotation one(@PathVariable long id) {
    return annotations.find(id).orElseThrow(() -> new NotFound("no annotation " + id));
  }

  @PostMapping("/api/v1/annotations")
  @ResponseStatus(HttpStatus.CREATED)
  Annotation create(@RequestBody(required = false) Annotations.Draft draft, Authentication who) {
    if (draft == null) {
      throw new InvalidInput("text", "send {\"text\", \"at\" or \"version\", \"product\", \"machine\", \"link\"}");
    }
    return annotations.create(draft, who.getName());
  }

  @DeleteMapping("/api/v1/annotations/{id}")
  Curation.Change delete(@PathVariable long id, Authentication who) {
    return curation.deleteAnnotation(id, who.getName());
  }

  @PostMapping("/api/v1/annotations/{id}:restore")
  Curation.Change restore(@PathVariable long id, Authentication who) {
    return curation.restoreAnnotation(id, who.getName());
  }

  @PostMapping("/api/v1/summaries/{id}:infrastructure")
  Summary explain(@PathVariable long id, @RequestBody(required = false) ExplainRequest request, Authentication who) {
    return annotations.explain(id, request == null ? null : request.annotation(), who.getName());
  }
}
