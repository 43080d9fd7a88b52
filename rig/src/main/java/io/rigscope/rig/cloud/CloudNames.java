package io.rigscope.rig.cloud;

import java.util.Locale;

/** Names and tag keys every cloud resource of a series shares. */
public final class CloudNames {

    /** The series a resource belongs to. */
    public static final String TAG_SERIES = "rigscope:series";
    /** Who stood it up. */
    public static final String TAG_OWNER = "rigscope:owner";
    /** When it deletes itself (ISO-8601 UTC); {@code cloud extend} moves it. */
    public static final String TAG_EXPIRES_AT = "rigscope:expires-at";
    /** {@code evidence} on the evidence bucket: kept after teardown on purpose. */
    public static final String TAG_ROLE = "rigscope:role";
    /** The value of {@link #TAG_ROLE} on the evidence bucket. */
    public static final String ROLE_EVIDENCE = "evidence";

    private CloudNames() {
    }

    /**
     * {@code rigscope-SERIES}, lower-cased, every run of characters outside {@code [a-z0-9]} one hyphen, at most 50
     * characters: a valid stack name, RDS instance identifier and schedule name.
     */
    public static String stackName(String series) {
        String s = series.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
        String name = "rigscope-" + (s.isEmpty() ? "series" : s);
        name = name.length() > 50 ? name.substring(0, 50) : name;
        return name.replaceAll("-+$", "");
    }

    /** The one-time schedule that deletes the stack at expiry (outside the stack). */
    public static String scheduleName(String series) {
        return stackName(series) + "-expiry";
    }

    /** The role the schedule assumes to delete the stack. */
    public static String expiryRoleName(String series) {
        return stackName(series) + "-expiry";
    }
}
