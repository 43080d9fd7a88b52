package io.rigscope.rig.options;

/** rigscope's exit codes; 99 for failed gates follows k6's convention. */
public final class ExitCodes {
    /** Everything ran and every gate passed. */
    public static final int OK = 0;
    /** The run could not be carried out (broker, database, IO). */
    public static final int ERROR = 1;
    /** A bad flag, config file or input: the message names it. */
    public static final int USAGE = 2;
    /** The run finished but at least one gate failed. */
    public static final int GATES_FAILED = 99;

    private ExitCodes() {
    }

    /** A bad flag, config or input file. Exits 2 with its message; no stack trace. */
    public static final class UsageException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public UsageException(String message) {
            super(message);
        }
    }
}
