/**
 * What every API call shares: errors as problem+json ({@link org.perftrack.server.web.ApiExceptionHandler}, the one
 * place that maps {@code problems.*} to HTTP), size limits and body readers, the OpenAPI document, and the wording of
 * numbers shared by mails and pages.
 */
package org.perftrack.server.web;
