package io.rigscope.rig.cli;

import io.rigscope.rig.series.SeriesFile;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The series {@code rigscope demo} runs, as built-in series files (resources next to this class): a short
 * ladder and a short sustained series with the read probe, sized for a 2-core machine that also runs the
 * broker, the database and the SUT. {@code --quick} shortens everything to under a minute; {@code --provoke
 * hot-row} climbs a ladder into the hot-row wall. Each file names the reference SUT's contract (API key, tenant,
 * reconciliation SQL, watched tables) as any series file against it would: the demo is {@code run} with one of
 * these files.
 */
final class DemoPlan {

    private DemoPlan() {
    }

    /** The resource name of the built-in file for these flags. */
    public static String resource(boolean quick, boolean hotRow) {
        return (hotRow ? "hot-row" : "demo") + (quick ? "-quick" : "") + ".yaml";
    }

    /** The built-in series file for these flags, read and validated like any series file. */
    public static SeriesFile file(String series, boolean quick, boolean hotRow) {
        String name = resource(quick, hotRow);
        try (InputStream in = Objects.requireNonNull(DemoPlan.class.getResourceAsStream(name),
                "built-in series file " + name)) {
            return SeriesFile.read("built-in " + name, new String(in.readAllBytes(), StandardCharsets.UTF_8), series,
                    series);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
