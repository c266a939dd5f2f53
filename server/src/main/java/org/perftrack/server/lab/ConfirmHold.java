package org.perftrack.server.lab;

import java.time.Duration;
import java.util.List;
import org.perftrack.server.alerts.MailHold;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.detection.UnsureClaims;
import org.springframework.stereotype.Component;

/**
 * A mail announcing a claim the model is unsure of ({@link UnsureClaims}) that the lab is about to confirm waits for the confirmation (at most
 * {@code perftrack.lab.confirm.mail-hold}); when the confirmation finishes the mail goes out at once. Products
 * without an agent that takes confirm jobs are mailed as before.
 */
@Component
class ConfirmHold implements MailHold {

  private final Agents agents;
  private final Confirmations confirmations;
  private final ConfirmProperties props;
  private final UnsureClaims unsure;

  ConfirmHold(Agents agents, Confirmations confirmations, ConfirmProperties props, UnsureClaims unsure) {
    this.unsure = unsure;
    this.agents = agents;
    this.confirmations = confirmations;
    this.props = props;
  }

  @Override
  public Duration holdFor(List<Regression> regressions) {
    return regressions.stream().anyMatch(this::aboutToBeConfirmed) ? props.mailHold() : Duration.ZERO;
  }

  private boolean aboutToBeConfirmed(Regression r) {
    return r.status() == Regression.Status.OPEN
        && agents.find(r.product(), r.machine()).map(a -> a.kinds().contains(JobKind.CONFIRM)).orElse(false)
        && confirmations.ofRegression(r.id()).map(c -> c.status() == Confirmations.Status.RUNNING)
            .orElseGet(() -> unsure.isUnsure(r.id(), props.doubt()).orElse(false));
  }
}
