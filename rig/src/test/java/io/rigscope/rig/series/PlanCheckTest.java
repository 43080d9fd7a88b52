package io.rigscope.rig.series;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.cli.RigscopeRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlanCheckTest {

    private static final String TARGET = "target: {url: 'http://127.0.0.1:1'}\n";

    private static List<SeriesPlan.Check.Problem> problems(String yaml) {
        return SeriesPlan.Check.problems(SeriesFile.read("plan.yaml", yaml, null, "s").plan());
    }

    @Test
    void repeatsThatCannotReachMinSamplesAreRefusedAtReadTimeWithExitTwoNamingTheKey(@TempDir Path dir)
            throws Exception {
        Path config = dir.resolve("short.yaml");
        Files.writeString(config, TARGET + "sustained: {rate: 10, repeats: 3, duration: 45s}\n");
        RigscopeRun r = RigscopeRun.rigscope("run", "--config", config.toString(), "--data-dir",
                dir.resolve("k").toString());
        assertThat(r.exit()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("short.yaml: sustained: 10 req/s x 45 s = 450 requests per repeat, fewer than "
                + "min_samples 1,000 (analyzer.min_samples").doesNotContain("Exception");
        assertThat(r.out()).doesNotContain("bring-up");
    }

    @Test
    void aPlanThatReachesMinSamplesHasNoProblem() {
        assertThat(problems(TARGET + "sustained: {rate: 10, repeats: 3, duration: 45s}\nanalyzer: {min_samples: 400}\n"))
                .isEmpty();
    }

    @Test
    void aRequestRateThresholdAboveThePlannedRateCannotHold() {
        assertThat(problems(TARGET + "sustained: {rate: 50, duration: 60s}\nload: {probe_rate: 0}\n"
                + "thresholds: {http_reqs: ['rate>80']}\n"))
                .extracting(SeriesPlan.Check.Problem::key).containsExactly("thresholds");
    }

    @Test
    void aProbeWhoseRateAtItsGatesP99ExceedsItsCapIsNamedByItsKey() {
        List<SeriesPlan.Check.Problem> p = problems(TARGET + "sustained: {rate: 50, duration: 60s}\n"
                + "scenarios:\n"
                + "  - {name: ingest, method: POST, url: /w, body: {batch: 1, envelope: '{}'}}\n"
                + "  - {name: probe, method: GET, url: /r, rate: 20, max_in_flight: 4}\n");
        assertThat(p).extracting(SeriesPlan.Check.Problem::key).containsExactly("scenarios[1].rate");
        assertThat(p.get(0).problem()).contains("10.0 requests in flight, more than its cap");
    }
}
