package org.perftrack.server.detection;

/** baseValue and headValue are trimmed means of the samples; ratio = headValue / baseValue. */
public record ComparisonResult(double baseValue, double headValue, double ratio, double pValue, Verdict verdict) {
}
