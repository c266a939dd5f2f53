package org.perftrack.server.alerts;

import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import java.util.ArrayList;
import java.util.List;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.InvalidInput.FieldProblem;
import org.perftrack.wire.Quantities;

/**
 * A new subscription as the API and the page take it; blank filters mean "everything".
 *
 * @param minChangePercent e.g. 10 for "only changes of at least 10 %"; null means 0
 * @param mode {@code immediate} (one mail per new summary: a version that got slower) or {@code digest} (one mail a day); null means immediate
 */
public record SubscriptionRequest(String email, String product, String machine, String benchmark,
    Double minChangePercent, String mode) {

  static final int MAX_PATTERN = 200;

  /** The request with blanks turned into nulls and defaults filled in; a 400 naming each bad field otherwise. */
  SubscriptionRequest validated() {
    List<FieldProblem> problems = new ArrayList<>();
    String address = email == null ? "" : email.trim();
    if (!isAddress(address)) {
      problems.add(new FieldProblem("email", "must be one email address such as dev@example.org"));
    }
    String p = pattern("product", product, problems);
    String m = pattern("machine", machine, problems);
    String b = pattern("benchmark", benchmark, problems);
    double min = minChangePercent == null ? 0 : minChangePercent;
    if (!(min >= 0 && min <= 100_000)) {
      problems.add(new FieldProblem("minChangePercent", "must be a number from 0 to 100000 (percent)"));
    }
    String md = mode == null || mode.isBlank() ? Subscription.IMMEDIATE : mode.trim().toLowerCase();
    if (!md.equals(Subscription.IMMEDIATE) && !md.equals(Subscription.DIGEST)) {
      problems.add(new FieldProblem("mode", "must be immediate or digest"));
    }
    if (!problems.isEmpty()) {
      throw new InvalidInput(problems);
    }
    return new SubscriptionRequest(address, p, m, b, min, md);
  }

  static boolean isAddress(String s) {
    if (s.isEmpty() || s.length() > 254 || !s.contains("@") || s.contains("<")) {
      return false;
    }
    try {
      new InternetAddress(s, true).validate();
      return true;
    } catch (AddressException e) {
      return false;
    }
  }

  static String pattern(String field, String value, List<FieldProblem> problems) {
    if (value == null || value.isBlank()) {
      return null;
    }
    String v = value.trim();
    if (v.length() > MAX_PATTERN || v.chars().anyMatch(Character::isISOControl)) {
      problems.add(new FieldProblem(field, "must be a pattern of at most " + Quantities.count(MAX_PATTERN)
          + " printable characters (* and ? are wildcards)"));
    }
    return v;
  }
}
