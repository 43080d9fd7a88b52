package io.rigscope.analyzer.series;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.attribution.Attributor;
import io.rigscope.analyzer.config.AnalyzerSettings;
import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.decision.SeriesReport;
import io.rigscope.analyzer.decision.SeriesReport.SeriesVerdict;
import io.rigscope.analyzer.decision.GateResult;
import io.rigscope.analyzer.report.ReportFiles;
import io.rigscope.model.wire.Config;
import io.rigscope.model.wire.DatabaseGain;
import io.rigscope.model.wire.ErrorKind;
import io.rigscope.model.wire.Ledger;
import io.rigscope.model.wire.Marker;
import io.rigscope.model.wire.RepeatEnd;
import io.rigscope.model.wire.RepeatStart;
import io.rigscope.model.wire.Sample;
import io.rigscope.model.wire.SampleBatch;
import io.rigscope.model.wire.SeriesEnd;
import io.rigscope.model.wire.SeriesStart;
import io.rigscope.model.wire.WireRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The reconciliation rule and the failure sentences over a whole series, fed to the pure core: claims come from 2xx
 * answers that passed their checks, 0 claimed for 0 gained reconciles nothing, a gain beyond the claim is named
 * with its repeat and size, and a load that reached nothing says so with its URL.
 */
class ReconciliationRuleTest {

    private static final String SERIES = "recon";
    private static final String URL = "http://127.0.0.1:1/v1/usage-events";
    private static final long T0_US = 1_764_460_800_000_000L;

    @Test
    void aRepeatThatClaimedNothingAndGainedNothingFailsItsReconciliationGates() {
        SeriesReport report = run(repeat(1, 0, 20, ErrorKind.HTTP_5XX, 500), new DatabaseGain(SERIES, 1, "rig",
                T0_US + 10_000_000L, "sustained", 0, 0));

        Map<String, GateResult> gates = report.repeats().get(0).gates();
        assertThat(gates.get("reconciliation_rows").pass()).isFalse();
        assertThat(gates.get("reconciliation_rows").reason()).isEqualTo("nothing was written, nothing was measured");
        assertThat(gates.get("reconciliation_qty").pass()).isFalse();
        assertThat(report.verdict()).isEqualTo(SeriesVerdict.UNRECONCILED);
        assertThat(report.headline()).startsWith("UNRECONCILED: repeat 1: nothing was written, nothing was measured "
                + "(0 events claimed, 0 rows gained)");
        assertThat(ReportFiles.markdown(report)).contains("Repeat 1, `reconciliation_rows`: nothing was written, "
                + "nothing was measured.");
    }

    @Test
    void aDatabaseThatGainedMoreThanWasClaimedIsNamedWithTheRepeatAndTheExcess() {
        // 24 requests of 10 events answered 200 and passed; 6 answered 200 but failed their check (claim nothing)
        SeriesReport report = run(repeat(3, 24, 6, ErrorKind.OTHER, 200), new DatabaseGain(SERIES, 3, "rig",
                T0_US + 10_000_000L, "sustained", 252, 252));

        assertThat(report.repeats().get(0).eventsClaimed()).isEqualTo(240);
        assertThat(report.reconciliation()).isEqualTo("repeat 3: the database gained 12 rows beyond the 240 events "
                + "claimed; 6 requests of 10 events failed (other): 60 events that may have been stored, which can "
                + "explain the 12, the database gained Σ quantity 12 beyond the 240 claimed (rows_written 252 != "
                + "events_claimed 240, qty_sum_gained 252 != qty_sum_sent 240)");
    }

    @Test
    void aTwoHundredWhoseCheckFailedClaimsNothing() {
        SeriesReport report = run(repeat(1, 10, 5, ErrorKind.OTHER, 200), new DatabaseGain(SERIES, 1, "rig",
                T0_US + 10_000_000L, "sustained", 100, 100));

        assertThat(report.repeats().get(0).eventsClaimed()).isEqualTo(100);
        assertThat(report.repeats().get(0).qtyClaimed()).isEqualTo(100);
        assertThat(report.repeats().get(0).reconciled()).isTrue();
    }

    @Test
    void aLoadThatWasRefusedEverywhereSaysTheTargetIsUnreachableWithItsUrl() {
        SeriesReport report = run(repeat(1, 0, 42, ErrorKind.REFUSED, 0), null);

        GateResult failed = report.repeats().get(0).gates().get("failed");
        assertThat(failed.reason()).isEqualTo("target unreachable: every request was refused (URL " + URL + ")");
        assertThat(report.repeats().get(0).errors()).containsExactly(Map.entry("refused", 42L));
        assertThat(report.headline()).endsWith("; target unreachable: every request was refused (URL " + URL
                + "), 42 of 42 ingest requests");
    }

    @Test
    void aLoadWhoseRequestsAllFailedNamesTheMostCommonErrorKind() {
        List<WireRecord> records = repeat(1, 0, 30, ErrorKind.TIMEOUT, 0);
        SeriesReport report = run(records, new DatabaseGain(SERIES, 1, "rig", T0_US + 10_000_000L, "sustained", 0,
                0));

        assertThat(report.headline()).endsWith("; every ingest request failed, most often timeout (30 of 30)");
        assertThat(report.repeats().get(0).gates().get("failed").reason()).isEqualTo("by kind: timeout 30");
    }

    /**
     * One repeat of {@code ok} requests answered 2xx and {@code bad} that failed with {@code err} (status
     * {@code badStatus}), 10 events of quantity 1 each, spread over 3 seconds, with its CONFIG, ledger and markers.
     */
    private static List<WireRecord> repeat(int rep, int ok, int bad, ErrorKind err, int badStatus) {
        List<WireRecord> r = new ArrayList<>();
        r.add(new Marker(SERIES, 0, "rig", T0_US - 3, "sustained", SeriesStart.EMPTY));
        r.add(new Marker(SERIES, rep, "gen-1", T0_US - 2, "sustained",
                new Config(Map.of("scenarios", List.of(Map.of("name", "ingest", "url", URL)))))); // a load plan
        r.add(new Marker(SERIES, rep, "gen-1", T0_US - 1, "sustained", RepeatStart.ofDurationMs(3000)));
        int n = ok + bad;
        long[] completed = new long[3];
        List<Sample> samples = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long t0 = T0_US + i * (3_000_000L / n);
            boolean good = i < ok;
            samples.add(new Sample("ingest", t0, t0 + 10, t0 + 2_000, good ? 201 : badStatus,
                    good ? ErrorKind.NONE : err, 10, 10, 100));
            completed[(int) ((t0 + 2_000 - T0_US) / 1_000_000L)]++;
        }
        r.add(new SampleBatch(SERIES, rep, "gen-1", T0_US + 3_000_000L, samples));
        long sec0 = T0_US / 1_000_000L;
        for (int s = 0; s < 3; s++) {
            r.add(new Ledger(SERIES, rep, "gen-1", T0_US + (s + 1) * 1_000_000L, "ingest", sec0 + s, completed[s],
                    completed[s], 0, completed[s], s == 2));
        }
        r.add(new Marker(SERIES, rep, "gen-1", T0_US + 3_000_001L, "sustained", RepeatEnd.EMPTY));
        return r;
    }

    private static SeriesReport run(List<WireRecord> records, DatabaseGain gain) {
        List<WireRecord> all = new ArrayList<>(records);
        if (gain != null) {
            all.add(gain.toMarker());
        }
        all.add(new Marker(SERIES, 0, "rig", T0_US + 20_000_000L, null, SeriesEnd.EMPTY));
        SeriesAnalysis analysis = new SeriesAnalysis(SERIES, AnalyzerSettings.defaults(), UnaryOperator.identity(),
                Attributor.none());
        List<Decision> out = new ArrayList<>();
        all.forEach(x -> out.addAll(analysis.accept(x)));
        return finish(analysis, out);
    }

    /** Finishes {@code analysis}, its verdicts appended to {@code out}; returns its report. */
    private static SeriesReport finish(SeriesAnalysis analysis, List<Decision> out) {
        out.addAll(analysis.finish());
        return analysis.report();
    }
}
