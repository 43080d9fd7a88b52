package io.rigscope.generator.plan;

/** How load is offered. The label ({@link #label()}) travels in every marker and summary. */
public enum LoopMode {
    /**
     * A fixed arrival schedule whatever the server does (k6 constant-arrival-rate). A request that cannot
     * start because max in-flight is reached is a drop. The only mode whose figures are service levels.
     */
    OPEN("open-loop"),
    /**
     * N workers, each sending its next request when its reply arrives (k6 constant-vus). For ceilings only:
     * its latencies hide the server's stalls (coordinated omission) and are never reported as a service level.
     */
    CLOSED("closed-loop");

    private final String label;

    LoopMode(String label) {
        this.label = label;
    }

    /** {@code open-loop} or {@code closed-loop}. */
    public String label() {
        return label;
    }

    /** The mode with this label, or an IllegalArgumentException naming the allowed labels. */
    public static LoopMode ofLabel(String label) {
        for (LoopMode m : values()) {
            if (m.label.equals(label)) {
                return m;
            }
        }
        throw new IllegalArgumentException("mode '" + label + "' is not one of open-loop, closed-loop");
    }
}
