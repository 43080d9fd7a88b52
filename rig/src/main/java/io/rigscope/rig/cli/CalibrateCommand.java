package io.rigscope.rig.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.rigscope.localenv.kafka.KafkaEndpoint;
import io.rigscope.rig.calibrate.CalibrationCase;
import io.rigscope.rig.calibrate.Calibration;
import io.rigscope.rig.calibrate.CaseResult;
import io.rigscope.rig.calibrate.CaseRun;
import io.rigscope.wire.kafka.TopicAdmin;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code rigscope calibrate}: provokes each tail cause for real on this machine (a private PostgreSQL cluster per
 * case, the reference SUT, the generator, every local collector and the live analyzer) and checks what the
 * analyzer names. One line per case, then {@code CALIBRATED} (exit 0) or {@code NOT CALIBRATED} (exit 1).
 */
@Command(name = "calibrate", mixinStandardHelpOptions = true,
        header = "Provoke each tail cause for real here and check the analyzer's attribution; exit 0 or 1.",
        description = {"Runs the calibration cases (clean, generator-pause, hot-row, wal-pool, vacuum-storm, "
            + "edge-second, cpu-starved), each a short series on its own private PostgreSQL cluster, and compares the cause "
            + "of each case's dominant episode with the expected one. Prints CALIBRATED (exit 0) or NOT "
            + "CALIBRATED (exit 1)."})
public final class CalibrateCommand implements Callable<Integer> {

    @Mixin
    KafkaOptions kafka = new KafkaOptions();

    @Option(names = "--json", description = "Print {\"calibrated\": bool, \"cases\": [...]} on stdout (the live "
            + "lines go to stderr).")
    boolean json;

    @Option(names = "--case", paramLabel = "NAME", description = "Run only this case (repeatable): clean, "
            + "generator-pause, hot-row, wal-pool, vacuum-storm, edge-second, cpu-starved.")
    List<String> cases = new ArrayList<>();

    @Option(names = "--out-dir", paramLabel = "DIR", description = "Keep each case's wire file here as "
            + "<case>.jsonl.gz (every record of every topic); without it they go to a temp directory.")
    Path outDir;

    @Override
    public Integer call() {
        List<CalibrationCase> selected = new ArrayList<>();
        for (String name : cases) {
            selected.add(Calibration.byName(name).orElseThrow(() -> new UsageException(
                    "--case '" + name + "' is not a calibration case; one of: " + Calibration.names())));
        }
        if (selected.isEmpty()) {
            selected.addAll(Calibration.CASES);
        }
        PrintStream console = json ? System.err : System.out;
        Path wireDir = wireDir();
        List<CaseResult> results = new ArrayList<>();
        try (KafkaEndpoint endpoint = kafka.open()) {
            try (TopicAdmin admin = new TopicAdmin(endpoint.clients())) {
                admin.ensureTopics();
            }
            CaseRun run = new CaseRun(endpoint.clients(), console);
            for (CalibrationCase c : selected) {
                CaseResult r;
                try {
                    r = run.run(c, wireDir.resolve(c.name() + ".jsonl.gz"), null, null).result();
                } catch (RuntimeException e) {
                    r = new CaseResult(c.name(), c.expected(), "error", "-", String.valueOf(e.getMessage()), 0, 0,
                            "-", "", "the case could not run: " + e, false);
                }
                results.add(r);
                console.println(r.line());
            }
        }
        boolean calibrated = results.stream().allMatch(CaseResult::ok);
        if (json) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("calibrated", calibrated);
            doc.put("cases", results);
            try {
                System.out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                        .writeValueAsString(doc));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        } else {
            console.println();
            console.println("== calibration (wire files in " + wireDir + ")");
            results.forEach(r -> console.println(r.line()));
            console.println(calibrated ? "CALIBRATED" : "NOT CALIBRATED");
        }
        if (json) {
            System.err.println(calibrated ? "CALIBRATED" : "NOT CALIBRATED");
        }
        return calibrated ? ExitCodes.OK : ExitCodes.ERROR;
    }

    private Path wireDir() {
        try {
            if (outDir != null) {
                return Files.createDirectories(outDir);
            }
            return Files.createTempDirectory("rigscope-calibrate-");
        } catch (IOException e) {
            throw new UsageException("--out-dir " + outDir + ": cannot create it (" + e.getMessage() + ")");
        }
    }
}
