package org.perftrack.server.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;

/**
 * The shapes a database lost mid-request takes (seen by {@code db.NothingLostUnderAttackTest} when the
 * postmaster is killed under uploads): each is "unavailable" (503, send again), never a 500. A bug is not.
 */
class DatabaseUnavailableTest {

  @Test
  void aRollbackThatFailedOnTheDeadConnectionIsTheDatabaseBeingAway() {
    TransactionSystemException rollback = new TransactionSystemException("JDBC rollback failed",
        new SQLException("Connection is closed", "08003"));
    rollback.initApplicationException(new DataAccessResourceFailureException("terminating connection"));
    assertThat(DatabaseUnavailableFilter.databaseUnavailable(rollback)).isTrue();
  }

  /** Seen in CI: the postmaster died under a commit; Hikari evicted the connection, so the rollback after the failed
   * commit met its closed proxy (an SQLException without SQLState) and Spring threw that alone. */
  @Test
  void aRollbackAfterAFailedCommitOnAnEvictedConnectionIsTheDatabaseBeingAway() {
    assertThat(DatabaseUnavailableFilter.databaseUnavailable(new TransactionSystemException(
        "Could not roll back JDBC transaction", new SQLException("Connection is closed")))).isTrue();
  }

  @Test
  void aTransactionThatCannotBeginAndAConnectionFailureUnderCopyAreTheDatabaseBeingAway() {
    assertThat(DatabaseUnavailableFilter.databaseUnavailable(
        new CannotCreateTransactionException("Could not open JDBC Connection for transaction"))).isTrue();
    assertThat(DatabaseUnavailableFilter.databaseUnavailable(new IllegalStateException("COPY of results failed",
        new SQLException("An I/O error occurred while sending to the backend.", "08006")))).isTrue();
    assertThat(DatabaseUnavailableFilter.databaseUnavailable(new SQLException("terminating connection due to"
        + " unexpected postmaster exit", "57P01"))).isTrue();
  }

  @Test
  void programmingErrorsAndOtherSqlErrorsAreNot() {
    assertThat(DatabaseUnavailableFilter.databaseUnavailable(new IllegalStateException("a bug"))).isFalse();
    assertThat(DatabaseUnavailableFilter.databaseUnavailable(new IllegalStateException("COPY of results failed",
        new SQLException("duplicate key", "23505")))).isFalse();
    TransactionSystemException rollback = new TransactionSystemException("JDBC rollback failed");
    rollback.initApplicationException(new IllegalArgumentException("a bug"));
    assertThat(DatabaseUnavailableFilter.databaseUnavailable(rollback)).isFalse();
  }
}
