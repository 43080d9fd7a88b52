package io.rigscope.rig.method;

import java.util.List;
import java.util.Objects;

/**
 * The outcome of one bring-up check.
 *
 * @param check the check's name ({@code schema}, {@code app-role}, {@code write-through})
 * @param ok true when the check passed
 * @param detail what was found; for a failure, what is wrong and how to fix it
 */
public record Finding(String check, boolean ok, String detail) {

    public Finding {
        Objects.requireNonNull(check, "check");
        Objects.requireNonNull(detail, "detail");
    }

    public static Finding pass(String check, String detail) {
        return new Finding(check, true, detail);
    }

    public static Finding fail(String check, String detail) {
        return new Finding(check, false, detail);
    }

    /** True when every finding passed (and there is at least one). */
    public static boolean allPassed(List<Finding> findings) {
        return !findings.isEmpty() && findings.stream().allMatch(Finding::ok);
    }

    @Override
    public String toString() {
        return (ok ? "ok   " : "FAIL ") + check + ": " + detail;
    }
}
