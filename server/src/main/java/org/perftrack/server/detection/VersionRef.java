package org.perftrack.server.detection;

/** A version as detection needs it: its name and its place in version order. */
record VersionRef(long id, String name, String sortKey) {}
