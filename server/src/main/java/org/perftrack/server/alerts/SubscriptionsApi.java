package org.perftrack.server.alerts;

import java.net.URI;
import java.time.Instant;
import java.util.List;
import org.perftrack.server.audit.Audit;
import org.perftrack.server.problems.NotFound;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * {@code /api/v1/subscriptions}. Every call needs a Bearer token, reads too: the list holds people's
 * addresses, which public read access does not cover.
 */
@RestController
@RequestMapping("/api/v1/subscriptions")
class SubscriptionsApi {

  /** A subscription as the API shows it; the unsubscribe token stays in the mails. */
  record SubscriptionView(long id, String email, String product, String machine, String benchmark,
      double minChangePercent, String mode, String source, String createdBy, Instant createdAt) {
    static SubscriptionView of(Subscription s) {
      return new SubscriptionView(s.id(), s.email(), s.productPattern(), s.machinePattern(), s.benchmarkPattern(),
          s.minChangePercent(), s.mode(), s.source(), s.createdBy(), s.createdAt());
    }
  }

  private final Subscriptions subscriptions;
  private final Audit audit;

  SubscriptionsApi(Subscriptions subscriptions, Audit audit) {
    this.subscriptions = subscriptions;
    this.audit = audit;
  }

  @GetMapping
  List<SubscriptionView> list(Authentication auth) {
    requireToken(auth);
    return subscriptions.list(null).stream().map(SubscriptionView::of).toList();
  }

  @GetMapping("/{id}")
  SubscriptionView get(@PathVariable long id, Authentication auth) {
    requireToken(auth);
    return subscriptions.find(id).map(SubscriptionView::of)
        .orElseThrow(() -> new NotFound("no subscription " + id));
  }

  @PostMapping
  ResponseEntity<SubscriptionView> create(@RequestBody SubscriptionRequest request, Authentication auth) {
    requireToken(auth);
    Subscription s = subscriptions.create(request, auth.getName());
    audit.record(auth.getName(), "subscribed", "subscription " + s.id(), s.email() + " to product "
        + s.productPattern() + ", machine " + s.machinePattern() + ", benchmark " + s.benchmarkPattern());
    return ResponseEntity.created(URI.create("/api/v1/subscriptions/" + s.id())).body(SubscriptionView.of(s));
  }

  @DeleteMapping("/{id}")
  ResponseEntity<Void> delete(@PathVariable long id, Authentication auth) {
    requireToken(auth);
    if (!subscriptions.remove(id, null)) {
      throw new NotFound("no subscription " + id);
    }
    audit.record(auth.getName(), "removed subscription", "subscription " + id, null);
    return ResponseEntity.noContent().build();
  }

  private static void requireToken(Authentication auth) {
    boolean token = auth != null && auth.isAuthenticated()
        && auth.getAuthorities().stream().anyMatch(a -> "ROLE_API".equals(a.getAuthority()));
    if (!token) {
      throw new ResponseStatusException(HttpStatus.UNAUTHORIZED,
          "subscriptions hold email addresses: this request needs an API token (Authorization: Bearer <token>)");
    }
  }
}
