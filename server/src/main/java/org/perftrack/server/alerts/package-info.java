/**
 * Email alerts and webhooks on regressions, summaries and the lab's events. Owns {@code alert_outbox},
 * {@code alert_subscription}, {@code alert_regression}, {@code alert_digest_day} and {@code alert_webhook}.
 * {@link org.perftrack.server.alerts.AlertService} is the entry point: summaries call it in the transaction that
 * stored and judged the run, the lab and profiles publish their events through it ({@code AlertService.publish}),
 * and it writes one outbox row per interested address (configured recipients and subscriptions, filtered by
 * pattern and minimum change) or webhook, so a mail exists exactly when its regression does; a {@code MailHold}
 * (the lab's confirm) may hold a regression's mail back for a while. {@code OutboxSender} runs on every server
 * instance and claims due rows with {@code FOR UPDATE SKIP LOCKED} plus a lease; {@code Delivery} sends a batch over
 * one SMTP connection and records sent or failed-with-backoff per mail. The daily digest is queued by
 * whichever instance claims the day first; {@code WebhookDelivery} posts the webhooks' rows. Operators see the
 * outbox at {@code /admin/outbox} and in {@code /actuator/health/mailOutbox}; webhooks are set on
 * {@code /admin/webhooks} ({@code WebhooksPages}) and {@code /api/v1/webhooks} ({@code WebhooksApi}).
 */
package org.perftrack.server.alerts;
