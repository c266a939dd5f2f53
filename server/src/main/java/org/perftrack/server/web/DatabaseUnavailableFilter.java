package org.perftrack.server.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * A database that is away (lost, restarting) is a 503 with {@code Retry-After}, wherever it shows: in a
 * filter (token and session look-ups run before any controller) as well as in a controller.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 1)
class DatabaseUnavailableFilter extends OncePerRequestFilter {

  private static final Logger log = LoggerFactory.getLogger(DatabaseUnavailableFilter.class);

  @Override
  protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    try {
      chain.doFilter(request, response);
    } catch (RuntimeException | ServletException e) {
      if (!databaseUnavailable(e) || response.isCommitted()) {
        throw e;
      }
      log.warn("database unavailable for {} {}: {}", request.getMethod(), request.getRequestURI(), e.toString());
      response.reset();
      response.setStatus(HttpStatus.SERVICE_UNAVAILABLE.value());
      response.setHeader(HttpHeaders.RETRY_AFTER, "5");
      response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
      response.getWriter().write("{\"type\":\"about:blank\",\"title\":\"Service Unavailable\",\"status\":503,"
          + "\"detail\":\"the database is unavailable; send again later (a run sent again is stored once)\"}");
    }
  }

  /**
   * The database went away under the request. Besides Spring's own translations this is a transaction that could
   * not begin, a commit or rollback that failed in JDBC (on a connection the pool has already evicted Hikari says
   * only "Connection is closed", with no SQLState; when a commit failed and then its rollback, Spring keeps only the
   * rollback's error), a rollback whose {@code applicationException} is the database being away, and a raw connection failure (SQLState class 08, or 57P: the server shut down or crashed) wrapped in another
   * exception, as from {@code COPY}.
   */
  static boolean databaseUnavailable(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof DataAccessResourceFailureException || t instanceof TransientDataAccessException
          || t instanceof CannotCreateTransactionException || t instanceof SQLRecoverableException
          || t instanceof SQLTransientConnectionException || t instanceof SQLNonTransientConnectionException
          || (t instanceof SQLException sql && sql.getSQLState() != null
              && (sql.getSQLState().startsWith("08") || sql.getSQLState().startsWith("57P")))) {
        return true;
      }
      if (t instanceof TransactionSystemException tse && (tse.getCause() instanceof SQLException
          || tse.getApplicationException() != null && databaseUnavailable(tse.getApplicationException()))) {
        return true;
      }
    }
    return false;
  }
}
