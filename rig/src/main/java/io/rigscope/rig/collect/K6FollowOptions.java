package io.rigscope.rig.collect;

import java.time.Duration;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/** The options of {@code rigscope collect k6}: where k6 writes, and how its seconds close. */
public final class K6FollowOptions {

    @Option(names = "--follow", paramLabel = "FILE",
            description = "k6: follow this k6 --out json=FILE while k6 writes it (plain file; waits for it, follows "
                    + "truncation and rotation; a last line without its newline waits for it).")
    Path follow;

    @Option(names = "--topic", paramLabel = "T",
            description = "k6: read the topic xk6-output-kafka writes (--out xk6-kafka=brokers=...,topic=T, its json "
                    + "format), from its start, on the --bootstrap cluster.")
    String topic;

    @Option(names = "--lateness", paramLabel = "DURATION", defaultValue = "2s",
            description = "k6: a second closes once k6's stream is this far past its end (default ${DEFAULT-VALUE}); a point of a "
                    + "second already closed is counted late.")
    Duration lateness;

    @Option(names = "--stop-after-idle", paramLabel = "DURATION",
            description = "k6: end when nothing new arrived for this long after the first line (before it, wait for "
                    + "k6 to start; --duration bounds that wait). Default: until Ctrl-C.")
    Duration stopAfterIdle;

    @Option(names = "--scenario-map", paramLabel = "K6=RIGSCOPE", split = ",",
            description = "k6: rename k6 scenarios, e.g. --scenario-map read=probe,default=ingest.")
    Map<String, String> scenarioMap = new LinkedHashMap<>();

    @Option(names = "--reconciliation-sql", paramLabel = "SQL|@FILE",
            description = {"k6, with --pg: when a k6 repeat ends, count what the database gained over its window "
                + "with this SQL (one row: rows_written, qty_sum_gained; parameters :window_start, :window_end, :run, "
                + ":rep) and publish it as the repeat's RECONCILIATION marker, before the series' end."})
    String reconciliationSql;

    @Option(names = "--no-reconciliation",
            description = "k6: tell the analyzer not to require a RECONCILIATION marker (k6 holds no database count).")
    boolean noReconciliation;
}
