package org.perftrack.server.alerts;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.web.Wording;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The alerts' entry point. Ingest calls it inside the transaction that stored the run and its
 * regressions, so the outbox rows commit (or roll back) with them; the sender is woken after commit.
 */
@Service
public class AlertService {

  private final AlertsProperties props;
  private final Subscriptions subscriptions;
  private final Announcements announcements;
  private final Outbox outbox;
  private final OutboxSender sender;
  private final WebhookQueue webhooks;
  private final List<MailHold> holds;

  /**
   * A moment others make (an agent silent or back, a bisection done, a step placed, a profile done), published in
   * the transaction that made it: mailed as a notice when it has a mail {@code subject}, and delivered to each
   * webhook that follows its {@code name}, product and machine; once per {@code key}.
   *
   * @param name the event, e.g. {@code agent.silent}, {@code regression.placed} (docs/operations.md lists them)
   * @param key what makes it one event: the same key again (a retried transaction, another server) adds nothing
   * @param subject the mail's subject, or null for no mail
   * @param text one sentence saying what happened
   * @param link the page it is about, a path such as {@code /lab}
   * @param about what the event carries in a webhook's JSON, e.g. {@code Map.of("agent", agentView)}
   */
  public record Event(String name, String key, String product, String machine, String subject, String text,
      String link, Map<String, Object> about) {

    /** The line a chat shows first: the mail's subject without its tag, or the text. */
    String headline() {
      return subject == null ? text : subject.replaceFirst("^\\[perftrack\\] ", "");
    }
  }

  AlertService(AlertsProperties props, Subscriptions subscriptions, Announcements announcements,
      Outbox outbox, OutboxSender sender, WebhookQueue webhooks, List<MailHold> holds) {
    this.props = props;
    this.subscriptions = subscriptions;
    this.announcements = announcements;
    this.outbox = outbox;
    this.sender = sender;
    this.webhooks = webhooks;
    this.holds = holds;
  }

  /** The longest any {@link MailHold} asks the mail of these regressions to wait. */
  private Duration hold(List<Regression> regressions) {
    return holds.stream().map(h -> h.holdFor(regressions)).max(Comparator.naturalOrder()).orElse(Duration.ZERO);
  }

  /**
   * The answer a held mail waited for is there: each mail not sent yet that announces this regression names it as
   * it stands {@code now} (placed at one version; null when it was withdrawn or is gone, and then it leaves the
   * mail, and a mail left with nothing to announce is not sent). A per-run mail goes out at once, a summary's once
   * its own settle time has passed.
   */
  @Transactional
  public void releaseHeld(long regressionId, Regression now) {
    int released = 0;
    for (Outbox.Held mail : outbox.held(regressionId)) {
      MailPayload p = mail.payload();
      List<Regression> items = p.items().stream().map(r -> r.id() == regressionId ? now : r)
          .filter(java.util.Objects::nonNull).toList();
      if (items.isEmpty()) {
        outbox.drop(mail);
        continue;
      }
      boolean run = mail.kind().equals("run");
      outbox.release(mail, run ? subject(items) : mail.subject(), new MailPayload(p.kind(), p.runId(), p.product(),
          p.machine(), run ? items.get(0).version() : p.version(), items, p.unsubscribeToken(), p.text(), p.link()),
          run ? Duration.ZERO : props.summarySettle());
      released++;
    }
    if (released > 0) {
      wakeSenderAfterCommit();
    }
  }

  /**
   * Queues one mail per interested address for the regressions this run created (an import's, which
   * joins no summary); returns how many.
   */
  @Transactional
  public int onRegressionsCreated(UUID runId, List<Regression> regressions) {
    return perRun(runId, record(runId, regressions));
  }

  /**
   * The regressions of an upload, after the summaries took theirs: all are remembered (the digest lists
   * them, and a step re-attributed later raises no second alarm), but those in {@code summarised} are
   * announced by their summary's mail only; the others (e.g. a reopened step that belongs to no
   * summary) get the per-run mail. Returns the ids that deserve an announcement at all: not seen
   * before and not a step already announced under another version pair.
   */
  @Transactional
  public Set<Long> onRegressionsCreated(UUID runId, List<Regression> regressions, Set<Long> summarised) {
    List<Regression> fresh = record(runId, regressions);
    perRun(runId, fresh.stream().filter(r -> !summarised.contains(r.id())).toList());
    return fresh.stream().map(Regression::id).collect(Collectors.toUnmodifiableSet());
  }

  /** How many of these regressions a mail will announce to someone: none without an immediate subscriber. */
  public int mailedOf(List<Regression> regressions) {
    return !props.enabled() || regressions.isEmpty() ? 0 : mailedOf(subscriptions.active(), regressions);
  }

  static int mailedOf(List<Subscription> subscriptions, List<Regression> regressions) {
    List<Subscription> immediate = subscriptions.stream().filter(s -> s.mode().equals(Subscription.IMMEDIATE)).toList();
    return (int) regressions.stream().filter(r -> r.status() == Regression.Status.OPEN)
        .filter(r -> immediate.stream().anyMatch(s -> s.wants(r))).count();
  }

  private List<Regression> record(UUID runId, List<Regression> regressions) {
    if (!props.enabled() || regressions.isEmpty()) {
      return List.of();
    }
    List<Regression> items = regressions.stream().filter(r -> r.status() == Regression.Status.OPEN)
        .sorted(Comparator.comparingDouble(Regression::severity).reversed()) // the worst first, as in the subject
        .toList();
    return announcements.record(runId, items);
  }

  private int perRun(UUID runId, List<Regression> fresh) {
    if (fresh.isEmpty()) {
      return 0;
    }
    // series judged again without a run: their first fresh regression (announced once) keys the mail
    String key = runId != null ? runId.toString() : "judged." + fresh.get(0).id();
    int queued = 0;
    for (Subscription s : subscriptions.active()) {
      List<Regression> wanted = fresh.stream().filter(s::wants).toList();
      if (s.mode().equals(Subscription.IMMEDIATE) && !wanted.isEmpty()) {
        Regression first = wanted.get(0);
        var payload = new MailPayload("run", runId == null ? null : runId.toString(), first.product(),
            first.machine(), first.version(), wanted, s.unsubscribeToken());
        Duration hold = hold(wanted);
        queued += (hold.compareTo(Duration.ZERO) > 0 ? outbox.addLater("run", key, s, subject(wanted), payload, hold)
            : outbox.add("run", key, s, subject(wanted), payload)) ? 1 : 0;
      }
    }
    if (queued > 0) {
      wakeSenderAfterCommit();
    }
    return queued;
  }

  /**
   * A summary opened ({@code grew} false) or grew: one mail per interested address for the new
   * summary, due after {@code summarySettle}; when it grows before that mail went out the mail is
   * updated, afterwards one follow-up is queued (and updated while pending), never a third mail.
   */
  @Transactional
  public int onSummary(long summaryId, boolean grew, String headline, String url, List<Regression> members) {
    if (!props.enabled() || members.isEmpty()) {
      return 0;
    }
    int delivered = webhooks.summary(summaryId, grew, headline, url, members, props.summarySettle());
    String first = "summary-" + summaryId;
    String followUp = first + "-grew";
    int queued = 0;
    for (Subscription s : subscriptions.active()) {
      List<Regression> wanted = members.stream().filter(s::wants)
          .sorted(Comparator.comparingDouble(Regression::severity).reversed()).toList();
      if (!s.mode().equals(Subscription.IMMEDIATE) || wanted.isEmpty()) {
        continue;
      }
      Regression worst = wanted.get(0);
      var payload = new MailPayload("summary", null, worst.product(), null, worst.version(), wanted,
          s.unsubscribeToken(), headline, url);
      String subject = "[perftrack] " + headline + MailView.unconfirmedNote(wanted);
      if (outbox.replacePending("summary", List.of(first, followUp), s.email(), subject, payload)) {
        continue;
      }
      Duration settle = props.summarySettle().compareTo(hold(wanted)) >= 0 ? props.summarySettle() : hold(wanted);
      boolean added = outbox.addLater("summary", grew ? followUp : first, s, subject, payload, settle)
          || (grew && outbox.addLater("summary", first, s, subject, payload, settle));
      queued += added ? 1 : 0;
    }
    if (queued + delivered > 0) {
      wakeSenderAfterCommit();
    }
    return queued;
  }

  /**
   * A summary withdrawn (its members moved to other summaries) before its mail went out: that mail is
   * not sent. True when one was pending, so that the caller announces the members where they are now.
   * A webhook's delivery that had not gone out is dropped too; one that had gone out is followed by
   * {@code summary.withdrawn}.
   */
  @Transactional
  public boolean onSummaryWithdrawn(long summaryId) {
    String first = "summary-" + summaryId;
    boolean dropped = props.enabled() && webhooks.withdrawn(summaryId);
    wakeSenderAfterCommit();
    return outbox.dropPending("summary", List.of(first, first + "-grew")) > 0 || dropped;
  }

  /**
   * Publishes an event (see {@link Event}): a notice mail once per key to every active subscription that follows
   * this product and machine when it has a subject, and a delivery to each webhook that follows it; returns how
   * many mails and deliveries were queued.
   */
  @Transactional
  public int publish(Event e) {
    if (!props.enabled()) {
      return 0;
    }
    int queued = webhooks.event(e);
    for (Subscription s : e.subject() == null ? List.<Subscription>of() : subscriptions.active()) {
      if (Glob.matches(s.productPattern(), e.product()) && Glob.matches(s.machinePattern(), e.machine())) {
        var payload = new MailPayload("lab", null, e.product(), e.machine(), null, List.of(), s.unsubscribeToken(),
            e.text(), e.link());
        queued += outbox.add("lab", e.key(), s, e.subject(), payload) ? 1 : 0;
      }
    }
    if (queued > 0) {
      wakeSenderAfterCommit();
    }
    return queued;
  }

  /**
   * {@code [perftrack] cygwin 1.5.24-2 on xp-lab-01: 3 regressions (write-64b ×2.67)}: the worst one named, and
   * whether steps in it were seen in one build only ({@link MailView#unconfirmedNote}).
   */
  static String subject(List<Regression> items) {
    Regression first = items.get(0);
    Regression worst = items.stream().max(Comparator.comparingDouble(Regression::severity)).orElseThrow();
    return String.format(Locale.ROOT, "[perftrack] %s %s on %s: %s (%s %s)%s", first.product(),
        first.version(), first.machine(), Wording.count(items.size(), "regression"), worst.benchmark(),
        MailFormat.ratio(worst.ratio()), MailView.unconfirmedNote(items));
  }

  private void wakeSenderAfterCommit() {
    if (TransactionSynchronizationManager.isSynchronizationActive()) {
      TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
        @Override
        public void afterCommit() {
          sender.wake();
        }
      });
    } else {
      sender.wake();
    }
  }
}
