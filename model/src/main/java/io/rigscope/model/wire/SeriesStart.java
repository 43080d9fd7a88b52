package io.rigscope.model.wire;

import java.util.Map;

/**
 * {@link Marker.Kind#SERIES_START}: nothing the analyzer reads; who started the series and from what.
 *
 * @param series the series id ({@code rigscope run}'s orchestrator), or null
 * @param source the importer that framed the series ({@code k6}, {@code rescan}), or null
 * @param follow what {@code collect k6} follows, or null
 * @param file the file {@code import k6} reads, or null
 * @param schedule a generator's schedule when the generator's plan is a whole series, or null
 * @param other keys this record does not know, kept in order (see {@link MarkerBody})
 */
public record SeriesStart(String series, String source, String follow, String file, ScheduleStart schedule,
                          Map<String, Object> other) implements MarkerBody {

    static final String SERIES = "series";
    static final String SOURCE = "source";
    static final String FOLLOW = "follow";
    static final String FILE = "file";

    /** A start with nothing to say. */
    public static final SeriesStart EMPTY = new SeriesStart(null, null, null, null, null, null);

    public SeriesStart {
        other = BodyFields.copy(other);
    }

    /** The orchestrator's: the series id. */
    public static SeriesStart ofSeries(String series) {
        return new SeriesStart(series, null, null, null, null, null);
    }

    /** An importer's: its name, and what it follows or reads (either may be null). */
    public static SeriesStart imported(String source, String follow, String file) {
        return new SeriesStart(null, source, follow, file, null, null);
    }

    @Override
    public Marker.Kind kind() {
        return Marker.Kind.SERIES_START;
    }

    static SeriesStart read(BodyFields f) {
        String series = f.string(SERIES);
        String source = f.string(SOURCE);
        String follow = f.string(FOLLOW);
        String file = f.string(FILE);
        return new SeriesStart(series, source, follow, file, ScheduleStart.read(f), f.rest());
    }

    @Override
    public Map<String, Object> toData() {
        BodyFields.Writer w = BodyFields.out().put(SERIES, series).put(SOURCE, source).put(FOLLOW, follow)
                .put(FILE, file);
        if (schedule != null) {
            schedule.write(w);
        }
        return w.putAll(other).done();
    }
}
