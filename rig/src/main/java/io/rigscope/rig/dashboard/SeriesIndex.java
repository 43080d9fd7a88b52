package io.rigscope.rig.dashboard;

import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.Verdict;
import io.rigscope.model.wire.VerdictFacts;
import io.rigscope.model.wire.WireRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the dashboard knows of every series on the broker: read from {@code rig.markers} and {@code rig.verdicts},
 * never computed. A series is live from its SERIES_START until its SERIES verdict, archived after. Each series
 * keeps only the analyzer's latest figures (the last final second per scenario, its freeze-seconds and final
 * episodes, each repeat's gates, the series verdict), which {@code /metrics} exposes. A series judged again
 * ({@code analyze --replay --publish}) has its decisions on the topic twice: freeze-seconds are counted once per
 * second, an episode once per repeat and start (the latest decision's cause), gates once per repeat.
 *
 * <p>Thread-safe: one thread {@link #accept}s, any thread reads.
 */
final class SeriesIndex {

    /** One series' state, guarded by its own monitor. */
    static final class Entry {
        final String series;
        long startedUs;
        long lastUs;
        boolean ended;
        String verdict;
        String headline;
        int passedRepeats;
        int judgedRepeats;
        final Map<Integer, Boolean> sustainedPassByRep = new TreeMap<>();
        final Map<String, Map<String, Object>> lastSecondByScenario = new TreeMap<>();
        final Map<String, Set<Long>> freezeSecondsByScenario = new TreeMap<>();
        final Map<String, String> episodeCauseByRepAndStart = new TreeMap<>();
        final Map<Integer, Map<String, Boolean>> gatesByRep = new TreeMap<>();

        Entry(String series) {
            this.series = series;
        }

        synchronized Snapshot snapshot() {
            Map<String, Map<String, Object>> seconds = new LinkedHashMap<>();
            lastSecondByScenario.forEach((k, v) -> seconds.put(k, Map.copyOf(v)));
            Map<Integer, Map<String, Boolean>> gates = new LinkedHashMap<>();
            gatesByRep.forEach((k, v) -> gates.put(k, Map.copyOf(new TreeMap<>(v))));
            Map<String, Long> freezes = new TreeMap<>();
            freezeSecondsByScenario.forEach((k, v) -> freezes.put(k, (long) v.size()));
            Map<String, Long> episodes = new TreeMap<>();
            episodeCauseByRepAndStart.values().forEach(c -> episodes.merge(c, 1L, Long::sum));
            int passed = verdict != null ? passedRepeats
                    : (int) sustainedPassByRep.values().stream().filter(Boolean::booleanValue).count();
            int judged = verdict != null ? judgedRepeats : sustainedPassByRep.size();
            return new Snapshot(series, startedUs, lastUs, verdict != null, verdict, headline, passed, judged,
                    seconds, freezes, episodes, gates);
        }
    }

    /**
     * A series as the index shows it, copied.
     *
     * @param startedUs SERIES_START's time (epoch µs), or 0 when its marker was not seen
     * @param lastUs the latest record's event time (epoch µs)
     * @param archived true once the SERIES verdict arrived
     * @param verdict the series verdict (PASS, FAIL, UNRECONCILED), or null while live
     * @param episodesByCause final episodes by {@code cause/confidence}
     */
    record Snapshot(String series, long startedUs, long lastUs, boolean archived, String verdict, String headline,
                    int passedRepeats, int judgedRepeats, Map<String, Map<String, Object>> lastSecondByScenario,
                    Map<String, Long> freezeSecondsByScenario, Map<String, Long> episodesByCause,
                    Map<Integer, Map<String, Boolean>> gatesByRep) {

        /** {@code 4/5} for a judged series, {@code 2/2 so far} for a live one. */
        String score() {
            return passedRepeats + "/" + judgedRepeats + (archived ? "" : " so far");
        }
    }

    private final Map<String, Entry> entries = new ConcurrentHashMap<>();

    void accept(WireRecord record) {
        if (record instanceof Marker m) {
            Entry e = entries.computeIfAbsent(m.run(), Entry::new);
            synchronized (e) {
                e.lastUs = Math.max(e.lastUs, m.ts());
                if (m.kind() == Marker.Kind.SERIES_START) {
                    e.startedUs = m.ts();
                } else if (m.kind() == Marker.Kind.SERIES_END) {
                    e.ended = true;
                }
            }
        } else if (record instanceof Verdict v) {
            Entry e = entries.computeIfAbsent(v.run(), Entry::new);
            synchronized (e) {
                e.lastUs = Math.max(e.lastUs, v.ts());
                accept(e, v);
            }
        }
    }

    private static void accept(Entry e, Verdict v) {
        VerdictFacts facts = v.facts();
        if (facts instanceof VerdictFacts.Second s) {
            if (!s.provisional()) {
                e.lastSecondByScenario.put(String.valueOf(v.scenario()), v.body());
            }
        } else if (facts instanceof VerdictFacts.Freeze f) {
            if (f.sec() != null) {
                e.freezeSecondsByScenario.computeIfAbsent(String.valueOf(v.scenario()), k -> new TreeSet<>())
                        .add(f.sec());
            }
        } else if (facts instanceof VerdictFacts.Episode ep) {
            if (!ep.provisional()) {
                // a series judged again (analyze --replay --publish) publishes its decisions again: the latest wins
                e.episodeCauseByRepAndStart.put(v.rep() + ":" + ep.start(), ep.cause() + "/" + ep.confidence());
            }
        } else if (facts instanceof VerdictFacts.Repeat r) {
            e.gatesByRep.put(v.rep(), new TreeMap<>(r.gates()));
            if ("sustained".equals(r.kind())) {
                e.sustainedPassByRep.put(v.rep(), Boolean.TRUE.equals(r.pass()));
            }
        } else if (facts instanceof VerdictFacts.Series s) {
            e.verdict = String.valueOf(s.verdict());
            e.headline = String.valueOf(s.headline());
            e.passedRepeats = s.passed() == null ? 0 : s.passed().intValue();
            e.judgedRepeats = s.total() == null ? 0 : s.total().intValue();
        }
    }

    /** Every series: live ones first, then archived, each group newest first. */
    List<Snapshot> all() {
        List<Snapshot> out = new ArrayList<>();
        entries.values().forEach(e -> out.add(e.snapshot()));
        out.sort(Comparator.comparing(Snapshot::archived)
                .thenComparing(Comparator.comparingLong(Snapshot::startedUs).reversed())
                .thenComparing(Snapshot::series));
        return out;
    }
}
