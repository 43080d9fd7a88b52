package io.rigscope.analyzer.series;

/**
 * Counters of an analysis in progress, for a console line. Written by the analysis thread only (once per
 * record batch), read by any thread.
 */
public final class Progress {
    private volatile long records;
    private volatile long samples;
    private volatile long closedSeconds;
    private volatile long freezeSeconds;
    private volatile long repeatsJudged;
    private volatile int currentRep;

    void update(long records, long samples, long closedSeconds, long freezeSeconds, long repeatsJudged, int currentRep) {
        this.records = records;
        this.samples = samples;
        this.closedSeconds = closedSeconds;
        this.freezeSeconds = freezeSeconds;
        this.repeatsJudged = repeatsJudged;
        this.currentRep = currentRep;
    }

    public long records() {
        return records;
    }

    public long samples() {
        return samples;
    }

    public long closedSeconds() {
        return closedSeconds;
    }

    public long freezeSeconds() {
        return freezeSeconds;
    }

    public long repeatsJudged() {
        return repeatsJudged;
    }

    public int currentRep() {
        return currentRep;
    }

    /** One console line. */
    public String line() {
        return String.format("records %,d  samples %,d  seconds closed %,d  freeze-seconds %d  rep %d  repeats judged %d",
                records, samples, closedSeconds, freezeSeconds, currentRep, repeatsJudged);
    }
}
