package org.perftrack.server.feeds;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.perftrack.server.alerts.SiteProperties;
import org.perftrack.server.problems.InvalidInput;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * {@code GET /feeds/<name>.atom?product=&machine=}: each {@link AtomFeed.Source} (regressions, summaries) as an Atom
 * feed, its address ({@code self}, {@code id}) and its title scoped to the filters; a bad filter is a 400
 * problem+json naming it, an unknown feed a 404.
 */
@Controller
class FeedPages {

  private final Map<String, AtomFeed.Source> sources;
  private final SiteProperties site;

  FeedPages(List<AtomFeed.Source> sources, SiteProperties site) {
    this.sources = sources.stream().collect(Collectors.toMap(AtomFeed.Source::name, Function.identity()));
    this.site = site;
  }

  @GetMapping("/feeds/{name}.atom")
  ResponseEntity<?> feed(@PathVariable String name, @RequestParam(required = false) String product,
      @RequestParam(required = false) String machine) {
    AtomFeed.Source source = sources.get(name);
    if (source == null) {
      return ResponseEntity.status(404).body(ProblemDetail.forStatusAndDetail(
          org.springframework.http.HttpStatus.NOT_FOUND, "no feed " + name + ".atom; there are "
              + sources.keySet().stream().sorted().map(n -> n + ".atom").toList()));
    }
    String p = AtomFeed.filter("product", product);
    String m = AtomFeed.filter("machine", machine);
    String self = site.base() + "/feeds/" + name + ".atom" + AtomFeed.query(p, m);
    return AtomFeed.answer(new AtomFeed.Feed(self, source.title() + AtomFeed.scope(p, m), self,
        site.base() + source.page(p, m), source.entries(p, m)));
  }

  @ExceptionHandler(InvalidInput.class)
  ResponseEntity<ProblemDetail> refused(InvalidInput e) {
    return AtomFeed.refused(e);
  }
}
