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
}
