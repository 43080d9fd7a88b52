package io.rigscope.rig.bringup;

import java.util.List;
import java.util.Objects;

/**
 * The outcome of one bring-up check.
 *
 * @param check the check's name ({@code schema}, {@code app-role}, {@code write-through})
 * @param ok true when the check passed
 * @param detail what was found; for a failure, what is wrong and how to fix it
 */
public record CheckResult(String check, boolean ok, String detail) {

    public CheckResult {
        Objects.requireNonNull(check, "check");
        Objects.requireNonNull(detail, "detail");
    }

    public static CheckResult pass(String check, String detail) {
        return new CheckResult(check, true, detail);
    }

    public static CheckResult fail(String check, String detail) {
        return new CheckResult(check, false, detail);
    }

    /** True when every check passed (and there is at least one). */
    public static boolean allPassed(List<CheckResult> results) {
        return !results.isEmpty() && results.stream().allMatch(CheckResult::ok);
    }

    @Override
    public String toString() {
        return (ok ? "ok   " : "FAIL ") + check + ": " + detail;
    }
}
