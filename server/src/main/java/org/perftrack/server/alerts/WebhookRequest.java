package org.perftrack.server.alerts;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.InvalidInput.FieldProblem;

/**
 * A new webhook as the API and the page take it; blank filters mean "everything", no events mean all of them.
 *
 * @param secret a {@code json} webhook's HMAC key (made by the server when not given) or a {@code matrix} one's access
 *     token (required); shown once in the answer, never again
 */
record WebhookRequest(String url, String kind, String secret, String product, String machine, String benchmark,
    Double minChangePercent, List<String> events) {

  static final int MAX_URL = 2000;
  static final int MAX_SECRET = 1000;

  /** The request with blanks turned into nulls and defaults filled in; a 400 naming each bad field otherwise. */
  WebhookRequest validated(NetworkGuard guard) {
    List<FieldProblem> problems = new ArrayList<>();
    String k = kind == null ? "" : kind.trim().toLowerCase(Locale.ROOT);
    if (!Webhook.KINDS.contains(k)) {
      problems.add(new FieldProblem("kind", "must be one of " + String.join(", ", Webhook.KINDS)));
    }
    String u = url(k, problems, guard);
    String s = secret == null || secret.isBlank() ? null : secret.trim();
    if (s != null && (s.length() > MAX_SECRET || s.chars().anyMatch(c -> c < 0x21 || c > 0x7e))) {
      problems.add(new FieldProblem("secret", "must be at most " + MAX_SECRET + " printable ASCII characters"));
    }
    if ("matrix".equals(k) && s == null) {
      problems.add(new FieldProblem("secret", "a matrix webhook needs the access token of its Matrix user"));
    }
    if (("slack".equals(k) || "teams".equals(k)) && s != null) {
      problems.add(new FieldProblem("secret", "a " + k + " webhook has none: its URL is its secret"));
    }
    String p = SubscriptionRequest.pattern("product", product, problems);
    String m = SubscriptionRequest.pattern("machine", machine, problems);
    String b = SubscriptionRequest.pattern("benchmark", benchmark, problems);
    double min = minChangePercent == null ? 0 : minChangePercent;
    if (!(min >= 0 && min <= 100_000)) {
      problems.add(new FieldProblem("minChangePercent", "must be a number from 0 to 100000 (percent)"));
    }
    List<String> e = events(problems);
    if (!problems.isEmpty()) {
      throw new InvalidInput(problems);
    }
    return new WebhookRequest(u, k, s, p, m, b, min, e);
  }

  private String url(String k, List<FieldProblem> problems, NetworkGuard guard) {
    String u = url == null ? "" : url.trim();
    URI uri;
    try {
      uri = new URI(u);
    } catch (URISyntaxException e) {
      problems.add(new FieldProblem("url", "must be an http or https URL such as https://hooks.slack.com/services/…"));
      return u;
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (u.length() > MAX_URL || uri.getHost() == null || !(scheme.equals("http") || scheme.equals("https"))
        || uri.getRawUserInfo() != null || uri.getRawFragment() != null) {
      problems.add(new FieldProblem("url", "must be an http or https URL of at most " + MAX_URL
          + " characters, without user name or #fragment"));
      return u;
    }
    if ("matrix".equals(k) && !uri.getRawPath().matches(".*/rooms/[^/]+/?")) {
      problems.add(new FieldProblem("url", "a matrix webhook's URL names the room: "
          + "https://matrix.example.org/_matrix/client/v3/rooms/!room:example.org"));
    }
    try {
      guard.check(uri.getHost().replaceAll("^\\[|\\]$", ""));
    } catch (NetworkGuard.Refused e) {
      problems.add(new FieldProblem("url", e.getMessage()));
    }
    return u;
  }

  private List<String> events(List<FieldProblem> problems) {
    if (events == null || events.isEmpty()) {
      return Webhook.EVENTS;
    }
    LinkedHashSet<String> chosen = new LinkedHashSet<>();
    for (String e : events) {
      String name = e == null ? "" : e.trim();
      if (Webhook.EVENTS.contains(name)) {
        chosen.add(name);
      } else {
        problems.add(new FieldProblem("events", "'" + (name.length() > 40 ? name.substring(0, 40) + "…" : name)
            + "' is not an event; they are " + String.join(", ", Webhook.EVENTS)));
      }
    }
    return List.copyOf(chosen);
  }
}
