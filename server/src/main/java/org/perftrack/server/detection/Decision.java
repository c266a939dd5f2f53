package org.perftrack.server.detection;

/**
 * What to do with the stored records of one series after a detection. {@code step} is the current
 * view of the step (null for WITHDRAW); {@code regressionId} is null for CREATE. CONFIRM, REATTRIBUTE
 * and REOPEN update values, version pair and p-value; only REOPEN and WITHDRAW change the status, and
 * never of a triaged record. {@code confirms} is true when a record reported at the newest version is
 * now shown by a later version too (it becomes confirmed). A CONFIRM has a {@code reason} only when the step's
 * suspect versions changed (later versions placed it more closely).
 */
public record Decision(Action action, Long regressionId, Step step, String reason, boolean confirms) {

  public enum Action { CREATE, CONFIRM, REATTRIBUTE, REOPEN, WITHDRAW }

  static Decision create(Step step) {
    return new Decision(Action.CREATE, null, step, null, false);
  }

  static Decision withdraw(long id, String reason) {
    return new Decision(Action.WITHDRAW, id, null, reason, false);
  }
}
