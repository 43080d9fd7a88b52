package io.rigscope.rig.experiment;

import java.util.ArrayList;
import java.util.List;

/**
 * The arms of an experiment in the order they run: control and treatment alternate, control first
 * (A1 B1 A2 B2 ...), so that a drift of the host over the experiment (a neighbour's build, a disk filling) falls on
 * both sides alike, and {@code --treatment lever} can read its settings from A1.
 */
public final class ArmOrder {

    /** The control side's name, and A in compare's terms. */
    public static final String CONTROL = "control";
    /** The treatment side's name, and B in compare's terms. */
    public static final String TREATMENT = "treatment";

    private ArmOrder() {
    }

    /**
     * One arm.
     *
     * @param side {@link #CONTROL} or {@link #TREATMENT}
     * @param index 1-based within its side
     */
    public record Arm(String side, int index) {
        /** True for a treatment arm. */
        public boolean treated() {
            return TREATMENT.equals(side);
        }

        /** {@code A1}, {@code B2}: the arm's short name. */
        public String label() {
            return (treated() ? "B" : "A") + index;
        }
    }

    /** {@code repeats} arms a side, alternating, control first. */
    public static List<Arm> of(int repeats) {
        if (repeats < 1) {
            throw new IllegalArgumentException("repeats must be at least 1, was " + repeats);
        }
        List<Arm> arms = new ArrayList<>(2 * repeats);
        for (int i = 1; i <= repeats; i++) {
            arms.add(new Arm(CONTROL, i));
            arms.add(new Arm(TREATMENT, i));
        }
        return List.copyOf(arms);
    }
}
