package io.rigscope.rig.cloud;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.rigscope.rig.plan.ScenarioSpec;
import io.rigscope.sut.SutContract;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * What {@code cloud run} sends to load node 1: the series file as the node must read it (its {@code cloud:} section
 * out; {@code target} the app node; {@code rds:} the stack's instance; the local-only keys out) and the shell script
 * (SSM {@code AWS-RunShellScript}) that runs it and copies the evidence to the bucket.
 */
public final class RemoteSeries {

    /** Where the node writes the evidence, and the bucket prefix it goes to ({@code evidence/SERIES/}). */
    public static final String EVIDENCE_PREFIX = "evidence/";
    private static final List<String> LOCAL_ONLY = List.of("cloud", "database", "pglog", "pglog_prefix", "pgdata");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private RemoteSeries() {
    }

    /**
     * The series file the node runs.
     *
     * @param outputs the stack's outputs (AppUrl, DatabaseInstanceId)
     */
    public static String seriesFile(Path config, CloudSpec spec, Map<String, String> outputs) {
        ObjectNode root = (ObjectNode) ScenarioSpec.Yaml.readFile(config).deepCopy();
        LOCAL_ONLY.forEach(root::remove);
        root.put("series", spec.series());
        ObjectNode target = root.has("target") && root.get("target").isObject() ? (ObjectNode) root.get("target")
                : root.putObject("target");
        target.remove("pid");
        target.put("url", required(outputs, "AppUrl"));
        if (spec.app() == null || spec.app().image() == null) {
            // the app node runs the reference SUT: its key and tenant, as rigscope would use when it starts one
            if (!target.has("api_key")) {
                target.put("api_key", SutContract.API_KEY);
            }
            if (!target.has("tenant")) {
                target.put("tenant", SutContract.TENANT);
            }
        }
        ObjectNode rds = root.putObject("rds");
        rds.put("db_instance", required(outputs, "DatabaseInstanceId"));
        rds.put("region", spec.region());
        try {
            return YAML.writeValueAsString(root);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The script load node 1 runs: the series, then its evidence to {@code s3://bucket/evidence/SERIES/}. */
    public static List<String> script(CloudSpec spec, String seriesFile, String bucket) {
        String b64 = Base64.getEncoder().encodeToString(seriesFile.getBytes(StandardCharsets.UTF_8));
        String dest = "s3://" + bucket + "/" + EVIDENCE_PREFIX + spec.series() + "/";
        return List.of(
                "set -uo pipefail",
                "cd /opt/rigscope",
                "test -f /opt/rigscope/ready || { echo 'rigscope: this node is still installing (no /opt/rigscope/ready)'; exit 3; }",
                "set -a; . /opt/rigscope/pg.env; set +a",
                "echo '" + b64 + "' | base64 -d > series.yaml",
                "rm -rf evidence && mkdir -p evidence",
                "rigscope run --config series.yaml --pg \"$RIGSCOPE_PG\" --data-dir /opt/rigscope/kafka"
                        + " --out evidence/records.jsonl --report-json evidence/report.json"
                        + " --report-md evidence/report.md --report-html evidence/report.html",
                "status=$?",
                "cp series.yaml evidence/series.yaml",
                "aws s3 cp --recursive --region " + spec.region() + " evidence " + dest,
                "echo \"rigscope: run exited $status; evidence in " + dest + "\"",
                "exit $status");
    }

    private static String required(Map<String, String> outputs, String key) {
        String v = outputs.get(key);
        if (v == null || v.isBlank()) {
            throw new IllegalStateException("the stack has no output " + key + " (was it made by this rigscope?)");
        }
        return v;
    }
}
