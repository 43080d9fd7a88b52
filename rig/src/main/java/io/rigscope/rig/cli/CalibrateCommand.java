package io.rigscope.rig.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.rigscope.localenv.kafka.KafkaEndpoint;
import io.rigscope.rig.calibrate.CalibrationCase;
import io.rigscope.rig.calibrate.Calibration;
import io.rigscope.rig.calibrate.CalibrationProfile;
import io.rigscope.rig.calibrate.CaseResult;
import io.rigscope.rig.calibrate.CaseRun;
import io.rigscope.rig.options.ExitCodes;
import io.rigscope.rig.options.KafkaOptions;
import io.rigscope.rig.options.UsageException;
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
 * case, the reference SUT, the generator, the profile's telemetry and the live analyzer) and checks what the
 * analyzer names. One line per case, then {@code CALIBRATED} (exit 0) or {@code NOT CALIBRATED} (exit 1); a bad
 * {@code --case} or {@code --profile} exits 2 naming it.
 */
@Command(name = "calibrate", mixinStandardHelpOptions = true,
        header = "Provoke each tail cause for real here and check the analyzer's attribution; exit 0 or 1.",
        description = {"Runs the calibration cases (clean, generator-pause, hot-row, wal-pool, vacuum-storm, "
            + "edge-second, cpu-starved, service-pause, pool), each a short series on its own private PostgreSQL cluster, and compares the cause "
            + "of each case's dominant episode with the expected one. Prints CALIBRATED (exit 0) or NOT "
            + "CALIBRATED (exit 1).",
            "--profile rds gives the analyzer only what an RDS instance gives (Enhanced Monitoring, Performance "
            + "Insights, the log through RDS's download, CloudWatch, the DB sampler, the generator's health; no "
            + "canary, no vmstat), made of this host's measurements and read by the real RDS collectors "
            + "(docs/calibrate.md)."})
final class CalibrateCommand implements Callable<Integer> {

    @Mixin
    KafkaOptions kafka = new KafkaOptions();

    @Option(names = "--json", description = "Print {\"profile\", \"calibrated\": bool, \"cases\": [...]} on stdout (the live "
            + "lines go to stderr).")
    boolean json;

    @Option(names = "--case", paramLabel = "NAME", description = "Run only this case (repeatable): clean, "
            + "generator-pause, hot-row, wal-pool, vacuum-storm, edge-second, cpu-starved, service-pause, pool.")
    List<String> cases = new ArrayList<>();

    @Option(names = "--profile", paramLabel = "local|rds", defaultValue = "local", description = "Which telemetry "
            + "the analyzer gets: local (every local collector; default) or rds (only the streams an RDS instance "
            + "gives, no canary; wal-pool and vacuum-storm must then be attributed).")
    String profile = "local";

    @Option(names = "--out-dir", paramLabel = "DIR", description = "Keep each case's wire file here as "
            + "<case>.jsonl.gz (every record of every topic); without it they go to a temp directory.")
    Path outDir;

    @Override
    public Integer call() {
        CalibrationProfile chosen = CalibrationProfile.byCode(profile).orElseThrow(() -> new UsageException(
                "--profile '" + profile + "' is not a calibration profile; one of: " + CalibrationProfile.codes()));
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
            CaseRun run = new CaseRun(endpoint.clients(), console, chosen);
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
            doc.put("profile", chosen.code());
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
            console.println("== calibration, profile " + chosen.code() + " (wire files in " + wireDir + ")");
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
