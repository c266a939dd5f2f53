package org.perftrack.agent.upload;

import java.util.Objects;

/**
 * How one upload ended: {@link Stored}, or one of the answers below. A 4xx is a rejection only when it is our
 * server's {@code application/problem+json}; anything else that is no answer about the run is retried and, in the
 * end, {@link Unreachable}.
 */
public interface Outcome {

  /** An answer with a status and the server's problem detail: Rejected and Refused differ only in meaning. */
  abstract class ProblemAnswer implements Outcome {
    private final int status;
    private final String problem;

    ProblemAnswer(int status, String problem) {
      this.status = status;
      this.problem = problem;
    }

    public int status() {
      return status;
    }

    public String problem() {
      return problem;
    }

    @Override
    public boolean equals(Object other) {
      if (this == other) {
        return true;
      }
      if (other == null || other.getClass() != getClass()) {
        return false;
      }
      ProblemAnswer o = (ProblemAnswer) other;
      return status == o.status && Objects.equals(problem, o.problem);
    }

    @Override
    public int hashCode() {
      return Objects.hash(getClass(), status, problem);
    }

    @Override
    public String toString() {
      return getClass().getSimpleName() + "[status=" + status + ", problem=" + problem + "]";
    }
  }

  /** A 4xx about the run itself: retrying cannot help. */
  final class Rejected extends ProblemAnswer {
    public Rejected(int status, String problem) {
      super(status, problem);
    }
  }

  /** 401/403 of the perftrack server: the token, not the run, is wrong. */
  final class Refused extends ProblemAnswer {
    public Refused(int status, String problem) {
      super(status, problem);
    }
  }

  /**
   * Not the perftrack API: a 404 or 405, or a 401/403 without perftrack's problem detail (a server URL with an
   * extra path reaches the pages' security, which refuses a POST). Retrying cannot help; neither is the run wrong.
   */
  final class NotPerftrack extends ProblemAnswer {
    public NotPerftrack(int status, String problem) {
      super(status, problem);
    }
  }

  /** Still down after every retry. */
  final class Unreachable implements Outcome {
    private final String reason;

    public Unreachable(String reason) {
      this.reason = reason;
    }

    public String reason() {
      return reason;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Unreachable && Objects.equals(reason, ((Unreachable) other).reason);
    }

    @Override
    public int hashCode() {
      return Objects.hash(reason);
    }

    @Override
    public String toString() {
      return "Unreachable[reason=" + reason + "]";
    }
  }
}
