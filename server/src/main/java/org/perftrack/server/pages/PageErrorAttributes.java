package org.perftrack.server.pages;

import java.util.Map;
import org.springframework.boot.web.error.ErrorAttributeOptions;
import org.springframework.boot.webmvc.error.DefaultErrorAttributes;
import org.springframework.stereotype.Component;
import org.springframework.web.context.request.WebRequest;

/**
 * Spring Boot's error attributes, plus {@code deleted} for the error page when a page's subject was deleted
 * ({@link PageNotFound#deleted()}): the 404 page then says so and where to restore it.
 */
@Component
class PageErrorAttributes extends DefaultErrorAttributes {

  @Override
  public Map<String, Object> getErrorAttributes(WebRequest request, ErrorAttributeOptions options) {
    Map<String, Object> attributes = super.getErrorAttributes(request, options);
    if (getError(request) instanceof PageNotFound p && p.deleted() != null) {
      attributes.put("deleted", p.deleted());
    }
    return attributes;
  }
}
