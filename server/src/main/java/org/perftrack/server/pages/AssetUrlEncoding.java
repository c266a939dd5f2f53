package org.perftrack.server.pages;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.resource.ResourceUrlEncodingFilter;

/**
 * Replaces Boot's {@link ResourceUrlEncodingFilter} with one that versions asset links only.
 * The stock filter asks the resource chain about every link a template writes; for a page link
 * (/runs/…) that means probing four static locations across every jar of the classpath, which on
 * a series page with hundreds of run links cost more than the SQL. Page links need no versioning,
 * and Spring Security already turns session-id URL rewriting off, so they pass through unchanged.
 */
@Configuration(proxyBeanMethods = false)
class AssetUrlEncoding {

  static final String[] ASSETS = {"/css/", "/js/", "/img/", "/webjars/"};

  @Bean
  FilterRegistrationBean<ResourceUrlEncodingFilter> resourceUrlEncodingFilter() {
    FilterRegistrationBean<ResourceUrlEncodingFilter> registration = new FilterRegistrationBean<>(new AssetsOnly());
    registration.setDispatcherTypes(DispatcherType.REQUEST, DispatcherType.ERROR);
    return registration;
  }

  static boolean isAsset(String url) {
    for (String prefix : ASSETS) {
      if (url.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }

  /** The stock filter, with page links short-circuited before they reach it. */
  static final class AssetsOnly extends ResourceUrlEncodingFilter {
    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
        throws ServletException, IOException {
      super.doFilter(request, response,
          (req, res) -> chain.doFilter(req, new PageLinksAsIs((HttpServletResponse) res)));
    }
  }

  private static final class PageLinksAsIs extends HttpServletResponseWrapper {
    PageLinksAsIs(HttpServletResponse response) {
      super(response);
    }

    @Override
    public String encodeURL(String url) {
      return isAsset(url) ? super.encodeURL(url) : url;
    }
  }
}
