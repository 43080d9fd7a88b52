package io.rigscope.rig.cli;

import io.rigscope.localenv.kafka.KafkaEndpoint;
import io.rigscope.rig.calibrate.CalibrationCase;
import io.rigscope.rig.calibrate.Calibration;
import io.rigscope.rig.calibrate.CaseRun;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.options.KafkaOptions;
import io.rigscope.wire.kafka.TopicAdmin;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code rigscope demo --provoke wal-pool|vacuum-storm|generator-pause}: that calibration case's series (its own
 * private cluster, SUT, load and provocation), with the demo's console, report and wire-file options.
 */
final class ProvokedDemo {

    /** The causes {@code demo --provoke} runs through their calibration case. */
    static final List<String> CASES = List.of("wal-pool", "vacuum-storm", "generator-pause");

    private ProvokedDemo() {
    }

    /** Runs the case; exit 0 when the series passed its gates, 99 when not (a provoked series usually fails). */
    static int run(String name, KafkaOptions kafka, Path out, Path reportJson, Path reportMd, Path reportHtml,
                   Path hlogDir) {
        CalibrationCase c = Calibration.byName(name).orElseThrow();
        PrintStream console = System.out;
        long startNs = System.nanoTime();
        try (KafkaEndpoint endpoint = kafka.open()) {
            try (TopicAdmin admin = new TopicAdmin(endpoint.clients())) {
                admin.ensureTopics();
            }
            Path wire = out != null ? out : Files.createTempFile("rigscope-demo-" + name + "-", ".jsonl.gz");
            CaseRun.Outcome o = new CaseRun(endpoint.clients(), console).run(c, wire, reportJson, reportMd, reportHtml,
                    hlogDir);
            console.println(o.result().line());
            console.printf("demo --provoke %s finished in %.0f s: %s%n", name, (System.nanoTime() - startNs) / 1e9,
                    o.report().verdict());
            return o.report().allGatesPassed() ? ExitCodes.OK : ExitCodes.GATES_FAILED;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
