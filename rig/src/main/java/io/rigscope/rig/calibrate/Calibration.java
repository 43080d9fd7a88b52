package io.rigscope.rig.calibrate;

import java.util.List;
import java.util.Optional;

/** The calibration cases, in the order {@code rigscope calibrate} runs them. */
public final class Calibration {

    /**
     * Every case: the control first, then one provocation per cause, then the bucket-edge check, then the
     * starved CPU (a cause that must not be named: host_io).
     */
    public static final List<CalibrationCase> CASES = List.of(new CleanCase(), new GeneratorPauseCase(),
            new HotRowCase(), new WalPoolCase(), new VacuumStormCase(), new EdgeSecondCase(), new CpuStarvedCase(), new ServicePauseCase(), new PoolCase());

    private Calibration() {
    }

    /** The case called {@code name}, if there is one. */
    public static Optional<CalibrationCase> byName(String name) {
        return CASES.stream().filter(c -> c.name().equals(name)).findFirst();
    }

    /** The cases' names, comma-separated, for messages. */
    public static String names() {
        return String.join(", ", CASES.stream().map(CalibrationCase::name).toList());
    }
}
