package io.rigscope.analyzer.repeat;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.rigscope.analyzer.json.WireView;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Why a repeat ended before its schedule without an end marker: one of its generators fell silent
 * ({@link Liveness}). Immutable; a report's {@code repeats[].silence}, beside {@code ended_by: generator_silent}.
 *
 * @param generator the silent generator's id (the first to fall silent; ties by name)
 * @param sinceSec the first second it was not heard in: the one after its last record of the repeat, epoch s
 * @param lastLedgerSec the last second its ledger covered, epoch s; -1 when it published no ledger
 * @param scheduledSec the repeat's scheduled duration (its REPEAT_START's {@code duration_ms}), s, rounded
 * @param neverOfferedSec seconds of the schedule after the last second its ledger covered: load never offered
 * @param ledgerCoveredToSec every generator of the repeat -> the last second its ledger covered (epoch s, -1: none);
 *                           samples completed after that second may be missing
 */
@WireView
@JsonPropertyOrder({"generator", "since_sec", "last_ledger_sec", "scheduled_s", "never_offered_s",
    "ledger_covered_to_sec", "note"})
public record Silence(@JsonProperty("generator") String generator, @JsonProperty("since_sec") long sinceSec,
                      @JsonProperty("last_ledger_sec") long lastLedgerSec, @JsonProperty("scheduled_s") long scheduledSec,
                      @JsonProperty("never_offered_s") long neverOfferedSec,
                      @JsonProperty("ledger_covered_to_sec") Map<String, Long> ledgerCoveredToSec) {

    /** The {@code ended_by} code of a repeat a silent generator ended. */
    public static final String ENDED_BY = "generator_silent";

    private static final DateTimeFormatter HH_MM_SS = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);

    public Silence {
        Objects.requireNonNull(generator, "generator");
        ledgerCoveredToSec = Collections.unmodifiableMap(new TreeMap<>(ledgerCoveredToSec));
    }

    /** What may be lost, in words (the report's {@code note}). */
    @JsonProperty("note")
    public String note() {
        return "samples completed after a generator's last ledger second may be missing";
    }

    /**
     * {@code generator gen-1 silent since 19:59:20: 20 of 30 s of the schedule never offered} (UTC).
     */
    public String describe() {
        return String.format(Locale.ROOT, "generator %s silent since %s: %d of %d s of the schedule never offered",
                generator, HH_MM_SS.format(Instant.ofEpochSecond(sinceSec)), neverOfferedSec, scheduledSec);
    }

    /** Each generator's last ledger second, and what that means for the samples after it. */
    public String lossLine() {
        StringBuilder b = new StringBuilder("ledger covered up to ");
        String sep = "";
        for (var e : ledgerCoveredToSec.entrySet()) {
            b.append(sep).append(e.getKey()).append(' ')
                    .append(e.getValue() < 0 ? "no second" : HH_MM_SS.format(Instant.ofEpochSecond(e.getValue())));
            sep = ", ";
        }
        return b.append(": samples completed after it may be missing").toString();
    }
}
