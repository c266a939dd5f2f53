package org.perftrack.server.branches;

import java.util.List;
import org.perftrack.server.problems.NotFound;
import org.perftrack.server.web.Links;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/v1/branches?product=} (the product's branches), {@code GET /api/v1/branches/{branch}?product=}
 * (its newest builds with their verdicts); deleting one is curation's ({@code DELETE} of the same path, soft, with
 * undo). A branch name may hold slashes ({@code feature/x}): it is the rest of the path.
 */
@RestController
class BranchesApi {

  private final Branches branches;

  BranchesApi(Branches branches) {
    this.branches = branches;
  }

  /**
   * A page of the product's branches, the most recently built first ({@code limit}, default 100, at most 1,000, after
   * branch {@code after}); a {@code Link: <…>; rel="next"} header names the next page when there is one.
   */
  @GetMapping("/api/v1/branches")
  ResponseEntity<List<Branches.Branch>> list(@RequestParam String product, @RequestParam(required = false) String after,
      @RequestParam(defaultValue = "100") int limit) {
    Branches.Page page = branches.list(product, after, limit);
    ResponseEntity.BodyBuilder ok = ResponseEntity.ok();
    if (page.next() != null) {
      ok.header(HttpHeaders.LINK, "<" + Links.to("", "/api/v1/branches", "product", product, "after", page.next(),
          "limit", Integer.toString(limit)) + ">; rel=\"next\"");
    }
    return ok.body(page.items());
  }

  @GetMapping("/api/v1/branches/{*branch}")
  Branches.Detail branch(@PathVariable String branch, @RequestParam String product) {
    String name = strip(branch);
    return branches.find(product, name).orElseThrow(() -> new NotFound("product " + product + " has no branch "
        + name));
  }

  /** A {@code {*branch}} capture starts with the slash before it. */
  static String strip(String captured) {
    return captured.startsWith("/") ? captured.substring(1) : captured;
  }
}
