/**
 * API tokens and users, managed by admins on {@code /admin} ({@code AdminPages}); the tokens themselves are
 * {@code security}'s.
 */
package org.perftrack.server.admin;
