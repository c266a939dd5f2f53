package org.perftrack.server.alerts;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/** Subscriptions in PostgreSQL. Removing one only marks it unsubscribed: old mails keep their link target. */
@Service
public class Subscriptions implements SmartInitializingSingleton {

  private static final Logger log = LoggerFactory.getLogger(Subscriptions.class);
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final String COLUMNS = """
      id, email, source, product_pattern, machine_pattern, benchmark_pattern, min_change_percent, mode,
      unsubscribe_token, created_by, created_at""";

  private final JdbcClient jdbc;
  private final AlertsProperties props;

  Subscriptions(JdbcClient jdbc, AlertsProperties props) {
    this.jdbc = jdbc;
    this.props = props;
  }

  static final String ACTIVE = "SELECT " + COLUMNS + """
       FROM alert_subscription
      WHERE unsubscribed_at IS NULL
        AND (source = 'user' OR lower(email) = ANY (?))
      ORDER BY id""";

  /** Everyone who gets mail now; a configured address counts only while it is still configured. */
  List<Subscription> active() {
    String[] configured = props.recipients().stream().map(String::toLowerCase).toArray(String[]::new);
    return jdbc.sql(ACTIVE).param(configured).query(Subscription.class).list();
  }

  static final String INSERT_CONFIGURED = """
      INSERT INTO alert_subscription (email, source, unsubscribe_token, created_by)
      VALUES (?, 'config', ?, 'perftrack.alerts.recipients')
      ON CONFLICT (lower(email)) WHERE source = 'config' DO NOTHING""";

  /**
   * Gives each configured address its row (once; an address that unsubscribed stays unsubscribed),
   * before the web server takes the first upload.
   */
  @Override
  public void afterSingletonsInstantiated() {
    for (String email : props.recipients()) {
      if (SubscriptionRequest.isAddress(email)) {
        jdbc.sql(INSERT_CONFIGURED).params(email, newToken()).update();
      } else {
        log.warn("perftrack.alerts.recipients: '{}' is not an email address; it gets no mail", email);
      }
    }
  }

  static final String INSERT = """
      INSERT INTO alert_subscription
        (email, product_pattern, machine_pattern, benchmark_pattern, min_change_percent, mode, unsubscribe_token, created_by)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      RETURNING\s""" + COLUMNS;

  public Subscription create(SubscriptionRequest request, String createdBy) {
    SubscriptionRequest r = request.validated();
    return jdbc.sql(INSERT).params(r.email(), r.product(), r.machine(), r.benchmark(), r.minChangePercent(), r.mode(),
        newToken(), createdBy).query(Subscription.class).single();
  }

  /** Active subscriptions made by {@code owner}, or all of them when {@code owner} is null (admins, API). */
  public List<Subscription> list(String owner) {
    return active().stream().filter(s -> owner == null || owner.equals(s.createdBy())).toList();
  }

  public Optional<Subscription> find(long id) {
    return jdbc.sql("SELECT " + COLUMNS + " FROM alert_subscription WHERE id = ? AND unsubscribed_at IS NULL")
        .param(id).query(Subscription.class).optional();
  }

  /** Ends a subscription; {@code owner} null may end any, otherwise only the owner's own. */
  public boolean remove(long id, String owner) {
    return jdbc.sql("""
        UPDATE alert_subscription SET unsubscribed_at = now()
        WHERE id = ? AND unsubscribed_at IS NULL AND (CAST(? AS text) IS NULL OR created_by = ?)""")
        .params(id, owner, owner).update() == 1;
  }

  /** The unsubscribe link: works once, without signing in; the token is the proof. */
  Optional<String> unsubscribe(String token) {
    return jdbc.sql("""
        UPDATE alert_subscription SET unsubscribed_at = coalesce(unsubscribed_at, now())
        WHERE unsubscribe_token = ? RETURNING email""").param(token).query(String.class).optional();
  }

  Optional<Subscription> byToken(String token) {
    return jdbc.sql("SELECT " + COLUMNS + " FROM alert_subscription WHERE unsubscribe_token = ?")
        .param(token).query(Subscription.class).optional();
  }

  private static String newToken() {
    byte[] bytes = new byte[24];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }
}
