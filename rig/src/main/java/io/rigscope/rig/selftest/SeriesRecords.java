package io.rigscope.rig.selftest;

import io.rigscope.analyzer.api.Analyzer;
import io.rigscope.analyzer.decision.Decision;
import io.rigscope.analyzer.pipeline.AnalyzerInput;
import io.rigscope.analyzer.report.ReportFiles;
import io.rigscope.analyzer.decision.SeriesReport;
import io.rigscope.model.codec.Decoded;
import io.rigscope.model.codec.WireCodec;
import io.rigscope.model.topic.Topic;
import io.rigscope.model.wire.WireRecord;
import io.rigscope.wire.WireFileReader;
import io.rigscope.wire.WireSource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** A series' input records (every topic the analyzer reads) as the topics hold them, or as a wire file does. */
record SeriesRecords(List<WireRecord> records) {

    private static final Duration READ_TIMEOUT = Duration.ofMinutes(2);

    SeriesRecords {
        records = List.copyOf(records);
    }

    /** The series' records on the broker, read to the topics' current end. */
    static SeriesRecords fromTopics(String bootstrap, String series) {
        List<WireRecord> all = new WireSource(bootstrap, new WireCodec())
                .records(new WireSource.Spec(AnalyzerInput.TOPICS, series, true, false), f -> { })
                .collectList().block(READ_TIMEOUT);
        return new SeriesRecords(Objects.requireNonNull(all, "records"));
    }

    /** The series' input records in a wire file. */
    static SeriesRecords fromWireFile(Path file, String series) {
        List<WireRecord> all = WireFileReader.read(file, new WireCodec())
                .filter(d -> d instanceof Decoded.Ok)
                .map(d -> ((Decoded.Ok) d).record())
                .filter(r -> series.equals(r.run()) && AnalyzerInput.TOPICS.contains(r.topic()))
                .collectList().block(READ_TIMEOUT);
        return new SeriesRecords(Objects.requireNonNull(all, "records"));
    }

    /** Records per topic. */
    Map<Topic, Long> perTopic() {
        Map<Topic, Long> out = new EnumMap<>(Topic.class);
        records.forEach(r -> out.merge(r.topic(), 1L, Long::sum));
        return out;
    }

    /** The records of one type. */
    <T extends WireRecord> List<T> of(Class<T> type) {
        return records.stream().filter(type::isInstance).map(type::cast).toList();
    }

    /** The series' report file (JSON) from these records, replayed in memory with the markers first. */
    byte[] reportJson(String series) {
        return ReportFiles.json(report(series));
    }

    /** The series' report from these records, replayed in memory with the markers first. */
    SeriesReport report(String series) {
        List<WireRecord> markers = records.stream().filter(r -> r.topic() == Topic.MARKERS).toList();
        Decision last = Analyzer.forSeries(series)
                .replay(reactor.core.publisher.Flux.just(markers, records))
                .blockLast(READ_TIMEOUT);
        if (!(last instanceof Decision.Series s)) {
            throw new IllegalStateException("the replay of " + series + " ended without a series verdict");
        }
        return s.report();
    }
}
