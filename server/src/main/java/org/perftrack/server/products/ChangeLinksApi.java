package org.perftrack.server.products;

import org.perftrack.server.changes.ChangeLinks;
import org.perftrack.server.pages.PageNotFound;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET} and {@code PUT /api/v1/products/{product}/change-links} (admin to set): the product's URL templates for
 * a version's changes ({@code {version}}) and a range's ({@code {from}}, {@code {to}}); an empty one removes it.
 */
@RestController
class ChangeLinksApi {

  private final ChangeLinks links;

  ChangeLinksApi(ChangeLinks links) {
    this.links = links;
  }

  @GetMapping("/api/v1/products/{product}/change-links")
  ChangeLinks.Templates get(@PathVariable String product) {
    return links.templates(product).orElseThrow(() -> new PageNotFound("no product " + product));
  }

  @PutMapping("/api/v1/products/{product}/change-links")
  ChangeLinks.Templates put(@PathVariable String product, @RequestBody(required = false) ChangeLinks.Templates request,
      Authentication who) {
    if (request == null) {
      throw new org.perftrack.server.problems.InvalidInput("versionUrl", "send {\"versionUrl\": …, \"rangeUrl\": …}");
    }
    if (!links.set(product, request, who.getName())) {
      throw new PageNotFound("no product " + product);
    }
    return get(product);
  }
}
