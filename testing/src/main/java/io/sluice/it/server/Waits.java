package io.sluice.it.server;

import java.time.Duration;
import java.util.concurrent.Callable;

/** Polls a readiness condition with a deadline, so a server that never comes up fails clearly. */
public final class Waits {

    private Waits() {}

    /**
     * Thrown by a condition to stop waiting at once, because what it waits for can no longer happen
     * (the server exited): {@link #until} passes it on instead of trying again.
     */
    public static final class GiveUp extends RuntimeException {
        public GiveUp(String message) {
            super(message);
        }
    }

    /**
     * Calls {@code condition} until it returns true or throws nothing; fails with {@code what} and
     * the last error once {@code timeout} has passed, or at once when it throws {@link GiveUp}.
     */
    public static void until(String what, Duration timeout, Callable<Boolean> condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Exception last = null;
        while (true) {
            try {
                if (Boolean.TRUE.equals(condition.call())) {
                    return;
                }
            } catch (GiveUp e) {
                throw e;
            } catch (Exception e) {
                last = e;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "Timed out after " + timeout + " waiting for " + what, last);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting for " + what, e);
            }
        }
    }
}
