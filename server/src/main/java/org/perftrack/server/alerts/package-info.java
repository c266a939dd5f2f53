/**
 * Email alerts on regressions. {@link org.perftrack.server.alerts.AlertService} is the entry point:
 * ingest calls it in the transaction that stored the run, and it writes one outbox row per interested
 * address (configured recipients and subscriptions, filtered by pattern and minimum change), so a mail
 * exists exactly when its regression does. {@code OutboxSender} runs on every server instance and
 * claims due rows with {@code FOR UPDATE SKIP LOCKED} plus a lease; {@code Delivery} sends a batch over
 * one SMTP connection and records sent or failed-with-backoff per mail. The daily digest is queued by
 * whichever instance claims the day first. Operators see the outbox at {@code /admin/outbox} and in
 * {@code /actuator/health/mailOutbox}.
 */
package org.perftrack.server.alerts;
