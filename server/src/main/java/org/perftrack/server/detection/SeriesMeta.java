package org.perftrack.server.detection;

/** What detection shows of a series: its names, unit and direction. */
record SeriesMeta(long id, String product, String machine, String benchmark, String metric, String unit,
    Direction direction) {}
