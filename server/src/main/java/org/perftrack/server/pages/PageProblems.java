package org.perftrack.server.pages;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.NotFound;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;

/**
 * The services' domain exceptions on a page: rendered by the error template as a 404 or 400 page, as
 * web/ApiExceptionHandler renders them as problem+json in the API (which takes precedence there). A 400 page lists
 * each field at fault and what is wrong with it.
 */
@ControllerAdvice(annotations = Controller.class)
class PageProblems {

  @ExceptionHandler(NotFound.class)
  void notFound(NotFound e, HttpServletResponse response) throws IOException {
    response.sendError(HttpStatus.NOT_FOUND.value(), e.getMessage());
  }

  /** The request attribute the error page lists the fields at fault from (as the API's problem names them). */
  static final String FIELD_PROBLEMS = "fieldProblems";

  @ExceptionHandler(InvalidInput.class)
  void invalidInput(InvalidInput e, HttpServletRequest request, HttpServletResponse response) throws IOException {
    request.setAttribute(FIELD_PROBLEMS, e.fields());
    response.sendError(HttpStatus.BAD_REQUEST.value(), e.getMessage());
  }

  /** A page's address with a parameter left out: the 400 page names it, as the API's problem does. */
  @ExceptionHandler(MissingServletRequestParameterException.class)
  void missingParameter(MissingServletRequestParameterException e, HttpServletRequest request,
      HttpServletResponse response) throws IOException {
    invalidInput(InvalidInput.missingParameter(e.getParameterName()), request, response);
  }

  /** A page's address with a parameter not of its type (/summaries/abc): the 400 page says what it must be. */
  @ExceptionHandler(MethodArgumentTypeMismatchException.class)
  void parameterOfWrongType(MethodArgumentTypeMismatchException e, HttpServletRequest request,
      HttpServletResponse response) throws IOException {
    invalidInput(InvalidInput.parameterOfWrongType(e.getName(), e.getRequiredType(), e.getValue()), request, response);
  }
}
