package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Replica server ids for a source whose {@code server-id} is not set: a range of {@link #WIDTH} ids
 * drawn when the job is built, so that two jobs reading one server do not take each other's place
 * on it. (A server keeps one binlog connection per replica id and drops the other: two readers with
 * one id take the connection from each other for as long as both run.) The first range of a JVM is
 * drawn at random from a space far larger than any number of jobs on one server; later ones in the
 * same JVM follow it, so sources built together (a SQL statement set, jobs submitted to one
 * JobManager) never overlap. The range is part of the built source, so it stays the same across the
 * job's restarts.
 */
@Internal
public final class DrawnServerIds {

    /** Ids per range: one per source subtask, more than a binlog source is ever run with. */
    public static final int WIDTH = 256;

    /** Above the ids replicas are usually given by hand, and Flink CDC's usual 5400 ones. */
    static final long FIRST = 10_000;

    /** Ranges to draw from; the last id stays below 2^31 (Flink CDC keeps ids in an int). */
    static final long RANGES = 1L << 22;

    private static final AtomicLong NEXT =
            new AtomicLong(ThreadLocalRandom.current().nextLong(RANGES));

    private DrawnServerIds() {}

    /** The next range, as {@code "first-last"}. */
    public static String next() {
        long range = Math.floorMod(NEXT.getAndIncrement(), RANGES);
        long first = FIRST + range * WIDTH;
        return first + "-" + (first + WIDTH - 1);
    }
}
