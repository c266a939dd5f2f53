/**
 * Who changed what, when: {@code audit_event}, written by {@link org.perftrack.server.audit.Audit} in the
 * transaction of the change itself (exclusions, deletions, triage, settings, tokens), read on {@code /admin/audit}
 * ({@code AuditPages}) and {@code GET /api/v1/audit} ({@code AuditApi}). Depends on nothing else of ours.
 */
package org.perftrack.server.audit;
