package io.rigscope.rig.options;

/** A bad flag, config or input file. Exits 2 with its message; no stack trace. */
public final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }
}
