/**
 * Who may do what: API tokens with scopes ({@link org.perftrack.server.security.ApiAccess} lists the scope of
 * every endpoint), users who sign in to the pages, the two filter chains
 * ({@link org.perftrack.server.security.SecurityConfiguration}), sign-in throttling and the bootstrap token. Owns
 * {@code api_token} and {@code app_user}.
 */
package org.perftrack.server.security;
