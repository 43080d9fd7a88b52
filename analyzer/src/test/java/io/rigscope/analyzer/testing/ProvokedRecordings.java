package io.rigscope.analyzer.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.rigscope.analyzer.api.Analyzer;
import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.pipeline.AnalyzerInput;
import io.rigscope.analyzer.decision.SeriesReport;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.topic.Topic;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;

/** The recordings of {@code rigscope calibrate}'s provocations (test resources {@code provoked/}, its README). */
public final class ProvokedRecordings {

    private ProvokedRecordings() {
    }

    /** Replays {@code provoked/NAME.jsonl.gz} (copied into {@code dir}) and returns the series' report. */
    public static SeriesReport replay(Path dir, String name, String series) throws IOException {
        return replay(dir, name, series, Set.of());
    }

    /** The same, without the records of the {@code removed} topics (a stream the run lacked). */
    public static SeriesReport replay(Path dir, String name, String series, Set<Topic> removed) throws IOException {
        Path file = dir.resolve(name + ".jsonl.gz");
        try (InputStream in = Objects.requireNonNull(
                ProvokedRecordings.class.getResourceAsStream("/provoked/" + name + ".jsonl.gz"), name)) {
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
        }
        Decision last = Analyzer.forSeries(series)
                .replay(AnalyzerInput.fromWireFile(file, new WireCodec(), f -> {
                    throw new AssertionError("dead letter in the recording: " + f.deadLetter().reason());
                }).map(batch -> batch.stream().filter(r -> !removed.contains(r.topic())).toList()))
                .blockLast(Duration.ofSeconds(60));
        assertThat(last).isInstanceOf(Decision.Series.class);
        return ((Decision.Series) last).report();
    }
}
